//go:build unix

package logs

import (
	"os"
	"syscall"
)

// TryLock takes an exclusive flock on f without waiting: false when
// another process holds it.
func TryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}

// NoFollow makes an open refuse a symbolic link.
const NoFollow = syscall.O_NOFOLLOW
