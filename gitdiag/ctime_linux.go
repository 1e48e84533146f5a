package gitdiag

import "syscall"

func ctimeOf(st *syscall.Stat_t) (sec, nsec int64) { return st.Ctim.Sec, st.Ctim.Nsec }
