package testenv

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Slowdown is how many times slower than a quiet machine this one runs
// now, at least 1: a deadline test on two busy cores must not fail
// because the scheduler gave the hook half a core. It is the largest of
// SESSION_HOOKS_TEST_SLOWDOWN (when set), the wall time of a fixed amount
// of CPU work over its CPU time, and the load average per core.
func Slowdown() float64 {
	s := max(1, spinRatio(), loadPerCore())
	if v, err := strconv.ParseFloat(os.Getenv("SESSION_HOOKS_TEST_SLOWDOWN"), 64); err == nil {
		s = max(s, v)
	}
	return s
}

// Scaled is d stretched by the machine's slowdown: a test asserts "before
// the deadline" as Scaled(deadline), never in absolute milliseconds.
func Scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Slowdown())
}

// loadPerCore is the last minute's load average over the cores, or 0
// where /proc/loadavg is not.
func loadPerCore() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	l, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0
	}
	return l / float64(runtime.NumCPU())
}
