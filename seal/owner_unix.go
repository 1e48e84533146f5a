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
