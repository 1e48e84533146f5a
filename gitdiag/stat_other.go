//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package gitdiag

import (
	"io/fs"
	"time"
)

// statData is the part of lstat(2) the index records for each file. Where
// the platform does not expose it, every file whose size and mtime match is
// hashed instead of trusted.
type statData struct {
	ctime         time.Time
	ino, uid, gid uint32
	known         bool
}

func statOf(fs.FileInfo) statData { return statData{} }
