package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestARunCollectsNothingUntilItsFirstCollectionThenPacesItself(t *testing.T) {
	os.Unsetenv("GOGC")
	os.Unsetenv("GOMEMLIMIT")
	Hook()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("before any collection GOGC is %d, want off", got)
	}
	if got := debug.SetMemoryLimit(-1); got != First {
		t.Fatalf("before any collection the limit is %d, want %d", got, First)
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	// SetGCPercent answers the setting it replaces: -1 (as it was) until
	// the cleanup has run.
	for debug.SetGCPercent(-1) != 100 {
		if time.Now().After(deadline) {
			t.Fatal("the first collection did not set the collector's pace")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got != Ceiling {
		t.Errorf("after the first collection the limit is %d, want %d", got, Ceiling)
	}
}
