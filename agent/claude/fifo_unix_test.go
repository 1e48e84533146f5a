//go:build unix

package claude

import "syscall"

// mkfifo makes a FIFO, which the tests use as a file that would block a
// reader that opened it.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
