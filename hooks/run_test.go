package hooks

import (
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
