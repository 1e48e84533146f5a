//go:build !unix

package seal

import "io/fs"

// private: on Windows the key's directory is in the user's own profile,
// whose access list keeps others out; mode bits say nothing there.
func private(fs.FileInfo) bool { return true }

// privateDir: as private, the profile's access list decides.
func privateDir(fs.FileInfo) bool { return true }
