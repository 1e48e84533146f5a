//go:build linux && !(amd64 || arm64 || riscv64)

package gitdiag

import "golang.org/x/sys/unix"

// lstatAt is fstatat(fd, prefix+name, AT_SYMLINK_NOFOLLOW).
func lstatAt(fd int, prefix, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(fd, prefix+name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}
