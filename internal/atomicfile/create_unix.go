//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// openExclusive creates name, failing if it exists, as os.OpenFile would
// without the poller: os.OpenFile tries to register every file with it
// (three fcntl calls and an epoll_ctl that a regular file refuses), a
// tenth of a small log write's cost.
func openExclusive(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o600)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
