package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/session-hooks/session-hooks/logs"
)

// Lock takes the session's state for one run's read-modify-write: Load,
// the run's changes, Save. Parallel runs of one session (post-compact
// twice, tool calls in parallel) otherwise each load the same state and
// the last save drops the others' compactions and announcements. It waits
// until ctx ends; the caller unlocks after Save. The lock is an flock on
// state/<session>.lock, let go by the kernel if the process dies.
func Lock(ctx context.Context, d logs.Dir, id string) (unlock func(), err error) {
	name := filepath.Join(Dir, logs.SafeName(id)+".lock")
	if err := d.Ensure(Dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(d.Path, name), os.O_RDWR|os.O_CREATE|logs.NoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the session's state: %w", err)
	}
	for wait := 100 * time.Microsecond; ; wait = min(2*wait, 5*time.Millisecond) {
		ok, err := logs.TryLock(f)
		if errors.Is(err, errors.ErrUnsupported) {
			f.Close()
			return func() {}, nil // no flock here: unguarded, as before locks
		}
		if ok {
			// Closed aside: on a file system that stalls, the close must
			// not hold the run past its deadline.
			return func() { go f.Close() }, nil
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock the session's state: %w", err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("the session's state stayed locked by another run")
		case <-time.After(wait):
		}
	}
}
