//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"syscall"
)

// openNonBlocking opens with O_NONBLOCK, which makes opening a FIFO
// return at once instead of waiting for a writer; for a regular file the
// flag changes nothing.
func openNonBlocking(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// nonBlock opens a FIFO without waiting for a writer.
const nonBlock = syscall.O_NONBLOCK
