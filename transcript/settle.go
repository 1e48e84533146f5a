package transcript

import (
	"context"
	"os"
	"time"
)

// Settle waits until the transcript at path has not grown for quiet, at
// most max (and never past ctx's deadline), and reports whether it did.
//
// Claude Code writes the transcript through a batched writer and can start
// a hook before the last batch is on disk: in the end-to-end suite the
// PreCompact hook read a transcript without the assistant message that had
// just arrived in 2 runs of 12. The wait costs quiet on each compaction,
// which itself takes seconds.
func Settle(ctx context.Context, path string, quiet, max time.Duration) bool {
	if path == "" {
		return true
	}
	const step = 5 * time.Millisecond
	deadline := time.Now().Add(max)
	size, since := fileSize(path), time.Now()
	for time.Since(since) < quiet {
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(step):
		}
		if s := fileSize(path); s != size {
			size, since = s, time.Now()
		}
	}
	return true
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}
