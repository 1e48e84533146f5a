package hooks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/events"
	"github.com/session-hooks/session-hooks/logs"
)

func TestRunHookTurnsAPanicIntoOneLine(t *testing.T) {
	var out strings.Builder
	Execute(strings.NewReader(""), &out, Event{Command: "init", Handle: func(*Run) string { panic("boom") }}, Options{Deadline: time.Second, NoLog: true})
	want := "session-hooks: internal error in init (boom); nothing was injected. Please report this.\n"
	if out.String() != want {
		t.Errorf("got %q", out.String())
	}
}

func TestRunHookAnswersByItsDeadline(t *testing.T) {
	var out strings.Builder
	start := time.Now()
	Execute(strings.NewReader(""), &out, Event{Command: "end", Handle: func(*Run) string {
		time.Sleep(5 * time.Second)
		return "too late"
	}}, Options{Deadline: 200 * time.Millisecond, NoLog: true})
	if !strings.Contains(out.String(), "end did not finish within its 200ms deadline") {
		t.Errorf("got %q", out.String())
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("waited %s for a 200ms deadline", time.Since(start))
	}
}

func TestRunHookCutsOutputToTheBudget(t *testing.T) {
	var out strings.Builder
	Execute(strings.NewReader(""), &out, Event{Command: "init", Handle: func(*Run) string {
		return strings.Repeat("line of output\n", 5000)
	}}, Options{Deadline: time.Second, NoLog: true})
	if n := len(out.String()); n > claude.Budget {
		t.Errorf("printed %d characters", n)
	}
}

// On a disk that stalls, the event line is given what is left of the
// run's time, and the hook still answers.
func TestAStalledEventLineDoesNotHoldTheHookPastItsDeadline(t *testing.T) {
	defer func(orig func(logs.Dir, events.Event)) { appendEvent = orig }(appendEvent)
	appendEvent = func(logs.Dir, events.Event) { time.Sleep(10 * time.Second) }
	var out strings.Builder
	start := time.Now()
	Execute(strings.NewReader(""), &out, Event{Command: "end", Handle: func(*Run) string { return "the answer\n" }},
		Options{Deadline: 300 * time.Millisecond, Getenv: func(string) string { return "" }})
	if out.String() != "the answer\n" {
		t.Errorf("got %q", out.String())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s with a 300ms deadline", took)
	}
}

func TestPhasesEndInOrderBeforeTheDeadline(t *testing.T) {
	for _, d := range []time.Duration{time.Second, 10 * time.Second, 50 * time.Millisecond} {
		p := phasesOf(d)
		if !(0 < p.gather && p.gather < p.write && p.write < p.handler && p.handler < d) {
			t.Errorf("%s: gather %s, write %s, handler %s", d, p.gather, p.write, p.handler)
		}
	}
}

// A read stuck on the file system is abandoned at the bound and named in
// one note with every other one the deadline cut.
func TestStuckReadsAreAbandonedAndListedInOneNote(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := &Run{Ctx: ctx, hard: ctx, skipNote: -1, notes: []string{"earlier"}}
	stuck := make(chan struct{})
	defer close(stuck)
	for _, what := range []string{"reading the configuration", "reading the feature list"} {
		if _, ok := within(r, what, func() int { <-stuck; return 1 }); ok {
			t.Errorf("%s: a stuck read returned", what)
		}
	}
	want := "skipped at the hook's deadline (a slow or unresponsive file system?): reading the configuration, reading the feature list"
	if len(r.notes) != 2 || !strings.HasPrefix(r.notes[1], want) {
		t.Errorf("notes: %q", r.notes)
	}
}
