//go:build unix

package install

import (
	"io/fs"
	"syscall"
)

// hardLinks is how many names the file has.
func hardLinks(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
