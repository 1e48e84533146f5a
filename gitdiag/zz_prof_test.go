package gitdiag

import (
	"context"
	"testing"
	"time"
	"runtime/debug"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestZZProfileSmall(t *testing.T) {
	debug.SetGCPercent(-1)
	var total time.Duration
	for range 40 {
		start := time.Now()
		r, _ := Open("/tmp/session-hooks-bench/walk/git+git")
		w, _ := r.revWalk(context.Background())
		w.leftRight(plumbing.NewHash("35fa1bec306c1c63a89a245b160535b07f1e165b"), plumbing.NewHash("1a3e64c6c4a623626ff0687008732a8e007e2a1c"))
		w.close()
		r.Close()
		total += time.Since(start)
	}
	t.Log("per walk", total/40)
}
