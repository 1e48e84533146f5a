//go:build unix

package seal

import (
	"io/fs"
	"os"
	"syscall"
)

// private: the key is the user's own, and nobody else may read it.
func private(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o077 == 0
}

// privateDir: the folder is the user's own, and nobody else may write to it.
func privateDir(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o022 == 0
}
