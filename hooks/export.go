package hooks

import (
	"context"
	"time"

	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
	"github.com/session-hooks/session-hooks/logs/otlp"
)

// minExport is the least time worth an export: below it, the backlog
// waits for the next run.
const minExport = 20 * time.Millisecond

// exportEvents sends the event log's backlog, this run's line (at)
// included, to the team's collector when telemetry is on: after the
// output is settled, within the export's budget and what is left of the
// deadline (file system work included), and never on stderr: a failure is
// kept in the export's state, for status and doctor.
func exportEvents(d logs.Dir, at events.Position, opt Options, began time.Time) {
	if !otlp.Enabled(opt.Getenv) {
		return
	}
	budget := min(otlp.HookBudget, opt.Deadline-time.Since(began))
	if budget < minExport {
		return
	}
	// The network gets the budget less a margin in which the export's
	// state is written: a failure must be kept, and a first cursor set,
	// or the next run would not know what to send.
	hard := time.After(budget)
	// The export owns its context: past the hard bound the hook returns
	// and exits, and a cancel on return would only race a late write.
	ctx, cancel := context.WithTimeout(context.Background(), budget-min(budget/4, stateMargin))
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer cancel()
		defer func() { recover() }() // an export never costs the hook its exit status
		cfg, _, err := otlp.FromEnv(opt.Getenv, opt.Version)
		if err != nil {
			otlp.RecordFailure(d, err, opt.Now())
			return
		}
		ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
		otlp.Export(ctx, d, otlp.Options{Config: cfg, From: at, Now: opt.Now, UserAgent: "session-hooks/" + opt.Version, Batch: hookBatch})
	}()
	select {
	case <-done:
	case <-hard:
	}
}

// hookBatch bounds the log a hook reads for one request: a backlog is
// sent in pieces by the hooks that follow, or whole by export.
const hookBatch = 256 << 10

// stateMargin is the most of the export's budget kept for writing its
// state after the network's share ran out.
const stateMargin = 60 * time.Millisecond
