package testenv

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// spinRatio spins one thread for 30 ms of CPU and returns the wall time
// it took over that: 1 on an idle core, 2 when it got half of one.
func spinRatio() float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		var ru unix.Rusage
		if unix.Getrusage(unix.RUSAGE_THREAD, &ru) != nil {
			return -1
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c0, w0 := cpu(), time.Now()
	if c0 < 0 {
		return 0
	}
	const work = 30 * time.Millisecond
	for cpu()-c0 < work && time.Since(w0) < 20*work {
	}
	return float64(time.Since(w0)) / float64(max(cpu()-c0, 1))
}
