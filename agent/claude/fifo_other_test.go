//go:build !unix

package claude

import "errors"

// mkfifo: this platform has no FIFOs in its file system.
func mkfifo(path string) error { return errors.New("no FIFOs on this platform") }
