package hooks

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/transcript"
)

// DeadlineFor reads --timeout, else SESSION_HOOKS_TIMEOUT, else the event's
// default. A bad value falls back to the default with a note.
func DeadlineFor(flag, env string, def time.Duration) (time.Duration, []string) {
	for _, src := range []struct{ name, value string }{{"--timeout", flag}, {"SESSION_HOOKS_TIMEOUT", env}} {
		if src.value == "" {
			continue
		}
		d, err := parseDuration(src.value)
		if err != nil || d <= 0 {
			return def, []string{fmt.Sprintf("%s=%q is not a duration like 800ms or 5s; using %s", src.name, src.value, def)}
		}
		return d, nil
	}
	return def, nil
}

// parseDuration accepts Go durations and plain seconds ("2.5").
func parseDuration(s string) (time.Duration, error) {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(secs * float64(time.Second)), nil
	}
	return time.ParseDuration(s)
}

// within runs fn, which reads or writes files, for as long as the run has
// left (up to phases.write, a little past the gathering's deadline, so
// that the writes after a cut gathering still happen). On a slow or dead file system a call can block for minutes
// in one system call: it is abandoned, goes on in the background until
// the process exits, and the run answers with what it has, noting what it
// skipped. fn must only return its result, never touch the run.
func within[T any](r *Run, what string, fn func() T) (T, bool) {
	v, ok := bounded(r, fn)
	if !ok {
		r.skip(what)
	}
	return v, ok
}

// within2 is within for a function of two results, most often a value and
// its error: ok is false, and both are zero, when the deadline cut it.
func within2[A, B any](r *Run, what string, fn func() (A, B)) (A, B, bool) {
	type pair struct {
		a A
		b B
	}
	p, ok := within(r, what, func() pair {
		a, b := fn()
		return pair{a, b}
	})
	return p.a, p.b, ok
}

// skip adds what to the one note that lists what the deadline cut, so
// that a dead file system costs one line of the output, not ten.
func (r *Run) skip(what string) {
	const head = "skipped at the hook's deadline (a slow or unresponsive file system?): "
	if r.skipNote < 0 || r.skipNote >= len(r.notes) || !strings.HasPrefix(r.notes[r.skipNote], head) {
		r.skipNote = len(r.notes)
		r.notes = append(r.notes, head+what)
		return
	}
	r.notes[r.skipNote] += ", " + what
}

// bounded is within without the note, for callers that say it their way.
func bounded[T any](r *Run, fn func() T) (T, bool) {
	bound := r.hard
	if bound == nil { // a Run built by a test
		bound = r.Ctx
	}
	ch := make(chan T, 1)
	go func() { ch <- fn() }()
	select {
	case v := <-ch:
		return v, true
	case <-bound.Done():
		r.fail("deadline", "a file system call outlived the deadline")
		var zero T
		return zero, false
	}
}

// readTranscript is the agent's transcript reader within the run's bound.
// The last read is kept: a run that asks twice (the facts, then the usage
// of an agent whose usage comes from the same read) reads once, and one
// that started the read ahead (prefetchTranscript) waits for it.
func (r *Run) readTranscript(path string, opt transcript.Options) (*transcript.Facts, error) {
	tf, err := r.readTranscriptFile(path, opt)
	if err == nil {
		tf = withPromptSeen(tf, r.session())
	}
	return tf, err
}

func (r *Run) readTranscriptFile(path string, opt transcript.Options) (*transcript.Facts, error) {
	c := r.lastRead
	if c == nil || c.path != path || c.opt != opt {
		c = r.startTranscriptRead(path, opt)
	}
	select {
	case <-c.done: // read already: no wait, whatever the deadline
		return c.facts, c.err
	default:
	}
	if _, ok := within(r, "reading the transcript", func() struct{} { <-c.done; return struct{}{} }); !ok {
		// Asked again, the answer is the same, without a second wait.
		cut := &transcriptRead{path: path, opt: opt, done: make(chan struct{}), err: errors.New("not read by the hook's deadline")}
		close(cut.done)
		r.lastRead = cut
		return nil, cut.err
	}
	return c.facts, c.err
}

// prefetchTranscript starts reading the transcript beside what the run
// does next, the git probes: a long session's transcript takes as long
// as they do. readTranscript with the same path and options waits for it.
func (r *Run) prefetchTranscript(path string, opt transcript.Options) {
	r.startTranscriptRead(path, opt)
}

func (r *Run) startTranscriptRead(path string, opt transcript.Options) *transcriptRead {
	c := &transcriptRead{path: path, opt: opt, done: make(chan struct{})}
	r.lastRead = c
	read := r.agent().Read
	go func() {
		defer close(c.done)
		defer func() {
			if v := recover(); v != nil {
				c.facts, c.err = nil, fmt.Errorf("internal error reading the transcript: %v", v)
			}
		}()
		c.facts, c.err = read(r.Ctx, path, opt)
	}()
	return c
}

// tasks is the task list the client keeps beside the session file,
// within the run's bound; nil for a client that keeps none.
func (r *Run) tasks() []transcript.Todo {
	read := r.agent().Tasks
	if read == nil {
		return nil
	}
	t, _ := within(r, "reading the task list", func() []transcript.Todo { return read(r.In.TranscriptPath, r.In.SessionID, r.Getenv) })
	return t
}

// phases splits a run's deadline so that the hook has answered and
// exited by it: gathering stops first (the probes and reads see this
// deadline), the writes of a run whose gathering was cut get a little
// longer, then the handler is given up on, and the event line has what is
// left.
type phases struct{ gather, write, handler time.Duration }

func phasesOf(deadline time.Duration) phases {
	return phases{gather: deadline * 85 / 100, write: deadline * 92 / 100, handler: deadline * 95 / 100}
}

// transcriptRead is one reading of a transcript, and what it gave once
// done is closed.
type transcriptRead struct {
	path  string
	opt   transcript.Options
	done  chan struct{}
	facts *transcript.Facts
	err   error
}
