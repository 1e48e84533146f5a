package otlp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// StateFile is the export's state beside the event log: the cursor, what
// was sent, the last failure.
const StateFile = "otlp.json"

const lockFile = "otlp.lock"

// MaxBatch bounds the log lines read for one request: a backlog of a few
// thousand events goes in a handful of requests.
const MaxBatch = 1 << 20

// State is the export's state, sealed like every file read back.
type State struct {
	// Cursor is where the next export starts: it moves only when the
	// collector accepted the events before it, or refused them for good.
	Cursor events.Position `json:"cursor"`
	Sent   int             `json:"sent"` // events sent, in all
	// Dropped counts events the collector refused for good (a body it
	// cannot read): sending them again would not change its answer.
	Dropped  int       `json:"dropped,omitempty"`
	LastSent time.Time `json:"last_sent,omitzero"`
	// Error is the last failure, until an export succeeds; Since is when
	// failures began.
	Error string    `json:"error,omitempty"`
	Since time.Time `json:"failing_since,omitzero"`
	// Lost says events were rotated out of the log before they were sent.
	Lost bool `json:"lost,omitempty"`
}

// LoadState reads the export's state; ok is false when there is none
// this user's session-hooks wrote (never exported, or a file the
// repository brought).
func LoadState(d logs.Dir) (State, bool) {
	var s State
	b, _, err := d.Read(StateFile, 64<<10)
	if err != nil || json.Unmarshal(b, &s) != nil {
		return State{}, false
	}
	return s, true
}

// Options are what one export is given.
type Options struct {
	Config Config
	// From is where to start when no state says (the hook's own line);
	// the zero Position is the oldest event kept.
	From      events.Position
	Now       func() time.Time
	UserAgent string
	// Batch bounds the log lines read for one request (MaxBatch when 0):
	// a hook reads less than a person's export.
	Batch int
}

func (o Options) batch() int {
	if o.Batch > 0 {
		return o.Batch
	}
	return MaxBatch
}

// Result is what one export did.
type Result struct {
	Sent, Dropped int
	More          bool // events wait that this export had no time for
	Busy          bool // another run was exporting: nothing done
	Lost          bool // events were rotated away before they were sent
	State         State
}

// Export sends what the event log holds past the cursor, batch after
// batch, until nothing is left, a send fails or ctx ends; the state is
// written after each batch the collector answered for. One export runs at
// a time: another finds the lock taken and leaves the work to it.
func Export(ctx context.Context, d logs.Dir, opt Options) (Result, error) {
	unlock, ok, err := lock(d)
	if err != nil || !ok {
		return Result{Busy: err == nil}, err
	}
	defer unlock()
	st, saved := LoadState(d)
	if !saved {
		st.Cursor = opt.From
	}
	res := Result{State: st}
	for ctx.Err() == nil {
		more, err := exportBatch(ctx, d, opt, &st, &res, saved)
		if err != nil || !more {
			return res, err
		}
		saved = true
	}
	return res, ctx.Err()
}

// exportBatch sends the next batch past st's cursor and records what came
// of it in st (written) and res; more says another batch waits. saved
// says st is on disk as it is.
func exportBatch(ctx context.Context, d logs.Dir, opt Options, st *State, res *Result, saved bool) (more bool, err error) {
	pending, err := events.ReadSince(d, st.Cursor, 0)
	if err != nil || (pending.Next == st.Cursor && !pending.Lost && !pending.More) {
		return false, err // nothing to send: no connection either
	}
	cn, err := connect(ctx, opt.Config)
	if err != nil {
		return false, failed(d, st, res, err, opt.Now(), saved)
	}
	batch, err := events.ReadSince(d, st.Cursor, opt.batch())
	if err != nil {
		cn.Close()
		return false, err
	}
	res.Lost = res.Lost || batch.Lost
	if len(batch.Events) == 0 {
		cn.Close()
		if batch.Next == st.Cursor {
			return false, nil
		}
		st.Cursor = batch.Next // lines of others, passed over
		res.State = *st
		return false, save(d, *st)
	}
	sent, err := send(ctx, cn, opt, batch.Events)
	var refused *Refused
	switch {
	case errors.As(err, &refused) && !refused.Retryable():
		st.Dropped += len(batch.Events)
		res.Dropped += len(batch.Events)
		st.Error, st.Since = err.Error(), cmpTime(st.Since, opt.Now())
	case err != nil:
		return false, failed(d, st, res, err, opt.Now(), saved)
	default:
		st.Sent += sent
		res.Sent += sent
		st.LastSent, st.Error, st.Since = opt.Now(), "", time.Time{}
	}
	st.Cursor, st.Lost = batch.Next, st.Lost || batch.Lost
	res.State, res.More = *st, batch.More
	if serr := save(d, *st); serr != nil {
		return false, serr
	}
	return batch.More && err == nil, err
}

// failed keeps a failure that leaves the cursor where it is in the state,
// and returns it. The same failure again is not written again (saved says
// the state on disk is st as it was).
func failed(d logs.Dir, st *State, res *Result, err error, now time.Time, saved bool) error {
	before := *st
	if st.Since.IsZero() || st.Error == "" {
		st.Since = now
	}
	st.Error = err.Error()
	res.State, res.More = *st, true
	if *st == before && saved {
		return err
	}
	if serr := save(d, *st); serr != nil {
		return errors.Join(err, serr)
	}
	return err
}

func cmpTime(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}

// send posts one batch on cn and says how many events it held.
func send(ctx context.Context, cn *conn, opt Options, evs []events.Event) (int, error) {
	b := Batch{Resource: opt.Config.Resource, Version: version(opt.Config.Resource), Records: make([]Record, len(evs))}
	now := opt.Now()
	for i, e := range evs {
		b.Records[i] = FromEvent(e, now)
	}
	body := b.Protobuf()
	if opt.Config.JSON {
		body = b.JSON()
	}
	if err := cn.post(ctx, body, opt.UserAgent); err != nil {
		return 0, err
	}
	return len(evs), nil
}

// version is the resource's service.version.
func version(res []KeyValue) string {
	for _, kv := range res {
		if kv.Key == "service.version" {
			return kv.Value.s
		}
	}
	return ""
}

// RecordFailure keeps a failure that came before any send (the
// configuration) in the state, for status and doctor to say, writing only
// when it is news.
func RecordFailure(d logs.Dir, err error, now time.Time) error {
	st, _ := LoadState(d)
	if st.Error == err.Error() {
		return nil
	}
	st.Error, st.Since = err.Error(), cmpTime(st.Since, now)
	return save(d, st)
}

func save(d logs.Dir, st State) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return d.WriteSealed(StateFile, append(b, '\n'), false)
}

// lock takes the export's lock without waiting; ok is false when another
// run holds it. Where the platform has no flock, exports are not guarded:
// two may send the same events.
func lock(d logs.Dir) (unlock func(), ok bool, err error) {
	if err := d.Ensure(); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(d.Path, lockFile), os.O_RDWR|os.O_CREATE|logs.NoFollow, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("cannot lock the export: %w", err)
	}
	ok, err = logs.TryLock(f)
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return func() { f.Close() }, true, nil
	case err != nil || !ok:
		f.Close()
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}
