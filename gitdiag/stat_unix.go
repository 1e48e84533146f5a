//go:build darwin || freebsd || netbsd || openbsd

package gitdiag

import (
	"io/fs"
	"syscall"
	"time"
)

// statData is the part of lstat(2) the index records for each file.
type statData struct {
	ctime         time.Time
	ino, uid, gid uint32
	known         bool
}

func statOf(fi fs.FileInfo) statData {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return statData{}
	}
	sec, nsec := ctimeOf(st)
	return statData{ctime: time.Unix(sec, nsec), ino: uint32(st.Ino), uid: st.Uid, gid: st.Gid, known: true}
}
