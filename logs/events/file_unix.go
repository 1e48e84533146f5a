//go:build unix

package events

import (
	"io/fs"
	"os"
	"syscall"
)

// noFollow refuses to open the event log through a symbolic link.
const noFollow = syscall.O_NOFOLLOW

func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// lock takes an exclusive flock on f, so that one hook at a time rotates
// it. A file system without flock leaves rotation unguarded rather than
// losing the event.
func lock(f *os.File) (unlock func()) {
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX) != nil {
		return func() {}
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
}
