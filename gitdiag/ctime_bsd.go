//go:build darwin || freebsd || netbsd || openbsd

package gitdiag

import "syscall"

func ctimeOf(st *syscall.Stat_t) (sec, nsec int64) {
	return int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)
}
