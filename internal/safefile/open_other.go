//go:build !unix

package safefile

import "os"

// openNonBlocking: this platform has no FIFOs in its file system.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

// nonBlock: no FIFOs to wait on here.
const nonBlock = 0
