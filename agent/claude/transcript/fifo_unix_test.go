//go:build unix

package transcript

import "syscall"

// mkfifo makes a FIFO, which the tests use as a file that would block a
// reader that opened it.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
