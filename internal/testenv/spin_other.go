//go:build !linux

package testenv

// spinRatio is not measured where a thread's CPU time is not at hand.
func spinRatio() float64 { return 0 }
