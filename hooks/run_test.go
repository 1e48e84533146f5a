package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/testenv"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

func TestRunHookTurnsAPanicIntoOneLine(t *testing.T) {
	var out strings.Builder
	executeText(strings.NewReader(""), &out, eventtable.Event{Command: "init"}, func(*Run) string { panic("boom") }, Options{Deadline: time.Second, NoLog: true})
	want := "session-hooks: internal error in init (boom); nothing was injected. Please report this.\n"
	if out.String() != want {
		t.Errorf("got %q", out.String())
	}
}

func TestRunHookAnswersByItsDeadline(t *testing.T) {
	var out strings.Builder
	start := time.Now()
	executeText(strings.NewReader(""), &out, eventtable.Event{Command: "end"}, func(*Run) string {
		time.Sleep(5 * time.Second)
		return "too late"
	}, Options{Deadline: 200 * time.Millisecond, NoLog: true})
	if !strings.Contains(out.String(), "end did not finish within its 200ms deadline") {
		t.Errorf("got %q", out.String())
	}
	if took := time.Since(start); took > testenv.Scaled(time.Second) {
		t.Errorf("waited %s for a 200ms deadline", took)
	}
}

func TestAScriptThatAskedForJSONGetsJSONWhenTheRunFails(t *testing.T) {
	for name, handle := range map[string]func(*Run) string{
		"the deadline": func(*Run) string { time.Sleep(5 * time.Second); return "too late" },
		"a panic":      func(*Run) string { panic("boom") },
	} {
		var out strings.Builder
		executeText(strings.NewReader(""), &out, eventtable.Event{Command: "end"}, handle, Options{Deadline: 200 * time.Millisecond, NoLog: true, JSON: true})
		var got struct {
			SchemaVersion int      `json:"schema_version"`
			Notes         []string `json:"notes"`
		}
		if err := json.Unmarshal([]byte(out.String()), &got); err != nil || got.SchemaVersion != facts.SchemaVersion || len(got.Notes) != 1 {
			t.Errorf("%s: %q (%v)", name, out.String(), err)
		}
	}
}

func TestRunHookCutsOutputToTheBudget(t *testing.T) {
	var out strings.Builder
	executeText(strings.NewReader(""), &out, eventtable.Event{Command: "init"}, func(*Run) string {
		return strings.Repeat("line of output\n", 5000)
	}, Options{Deadline: time.Second, NoLog: true})
	if n := len(out.String()); n > claude.Budget {
		t.Errorf("printed %d characters", n)
	}
}

// On a disk that stalls, the event line is given what is left of the
// run's time, and the hook still answers.
func TestAStalledEventLineDoesNotHoldTheHookPastItsDeadline(t *testing.T) {
	defer func(orig func(logs.Dir, events.Event) (events.Position, error)) { appendEvent = orig }(appendEvent)
	appendEvent = func(logs.Dir, events.Event) (events.Position, error) {
		time.Sleep(10 * time.Second)
		return events.Position{}, nil
	}
	var out strings.Builder
	start := time.Now()
	executeText(strings.NewReader(""), &out, eventtable.Event{Command: "end"}, func(*Run) string { return "the answer\n" },
		Options{Deadline: 300 * time.Millisecond, Getenv: func(string) string { return "" }})
	if out.String() != "the answer\n" {
		t.Errorf("got %q", out.String())
	}
	if took := time.Since(start); took > testenv.Scaled(time.Second) {
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

func TestTheDeadlineIsReadAsAPersonWritesIt(t *testing.T) {
	def := 10 * time.Second
	tests := []struct {
		flag, env string
		want      time.Duration
		note      bool
	}{
		{"", "", def, false},
		{"800ms", "", 800 * time.Millisecond, false},
		{"2.5", "", 2500 * time.Millisecond, false}, // plain seconds, not milliseconds
		{"", "3", 3 * time.Second, false},
		{"5s", "1s", 5 * time.Second, false}, // the flag wins
		{"0", "", def, true},                 // no deadline at all is no deadline
		{"-1s", "", def, true},
		{"soon", "", def, true},
		{"", "0s", def, true},
	}
	for _, tt := range tests {
		got, notes := DeadlineFor(tt.flag, tt.env, def)
		if got != tt.want || (len(notes) > 0) != tt.note {
			t.Errorf("DeadlineFor(%q, %q) = %s %q, want %s (a note: %v)", tt.flag, tt.env, got, notes, tt.want, tt.note)
		}
	}
}

func TestACutOutputIsRecordedAsCutAndAJSONReplyIsCutInsideItsText(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	answer := func(reply protocol.Reply) events.Event {
		b.Reset()
		execute(strings.NewReader(""), &b, eventtable.Event{Command: "init"}, func(*Run) protocol.Reply { return reply },
			Options{Deadline: 5 * time.Second, Getenv: projectEnv(dir)})
		all, err := events.Read(logs.DirFor(dir))
		if err != nil || len(all) == 0 {
			t.Fatalf("no event: %v", err)
		}
		return all[len(all)-1]
	}
	run := func(out string) events.Event { return answer(protocol.Say(out)) }
	if e := run(strings.Repeat("line of output\n", 5000)); !e.Truncated || e.Bytes > claude.Budget {
		t.Errorf("a long text: truncated %v, %d bytes", e.Truncated, e.Bytes)
	}
	if e := run("short"); e.Truncated {
		t.Errorf("a short text was recorded as cut")
	}
	short := protocol.ContextJSON(protocol.PostToolBatch, strings.Repeat("x\n", 100))
	if e := answer(protocol.AddContext(protocol.PostToolBatch, strings.Repeat("x\n", 100))); e.Truncated || e.Bytes != len(short) || b.String() != short {
		t.Errorf("a short JSON reply was changed: %d of %d bytes", e.Bytes, len(short))
	}
	for _, reply := range []protocol.Reply{protocol.AddContext(protocol.PostToolBatch, strings.Repeat("x\n", claude.Budget)),
		protocol.Hold("Before you stop:\n- " + strings.Repeat("create the missing file \"a\"\n- ", 1000))} {
		e := answer(reply)
		out := b.String()
		if !e.Truncated || logs.Len(out) > claude.Budget || !json.Valid([]byte(out)) || !strings.Contains(out, "output cut") {
			t.Errorf("a long JSON reply: truncated %v, %d characters, valid %v: %.100s", e.Truncated, logs.Len(out), json.Valid([]byte(out)), out)
		}
	}
}

func TestTheProjectIsThePayloadsCwdElseClaudesProjectDir(t *testing.T) {
	env := func(k string) string {
		if k == claude.EnvProjectDir {
			return "/from/env"
		}
		return ""
	}
	if got := projectDir(protocol.Input{Cwd: "/from/payload"}, Claude, env); got != "/from/payload" {
		t.Errorf("got %q", got)
	}
	if got := projectDir(protocol.Input{}, Claude, env); got != "/from/env" {
		t.Errorf("got %q, want $CLAUDE_PROJECT_DIR", got)
	}
	if got := projectDir(protocol.Input{}, Claude, func(string) string { return "" }); got == "" || got == "/from/env" {
		t.Errorf("without either: %q, want the process's directory", got)
	}
}

func TestAPayloadsHugeFieldsAreCutBeforeTheyAreLogged(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("é", 1<<19) // 1 MiB
	payload, _ := json.Marshal(map[string]any{"session_id": huge, "hook_event_name": huge, "source": huge, "trigger": huge,
		"reason": huge, "model": huge, "cwd": dir})
	var out strings.Builder
	executeText(strings.NewReader(string(payload)), &out, eventtable.Event{Command: "end"}, func(*Run) string { return "" },
		Options{Deadline: 5 * time.Second, Getenv: projectEnv(dir)})
	fi, err := os.Stat(filepath.Join(logs.DirFor(dir).Path, events.File))
	if err != nil || fi.Size() > 8<<10 {
		t.Fatalf("the event line: %v, %d bytes", err, fi.Size())
	}
}

// A person can see what the model was given: the event line of a run whose
// output reaches the model keeps it, as printed; SessionEnd's reaches no
// model, and keeps none.
func TestTheEventLineKeepsWhatTheModelWasGiven(t *testing.T) {
	dir := t.TempDir()
	run := func(event, out string) events.Event {
		var b strings.Builder
		executeText(strings.NewReader(`{"session_id":"s1","cwd":"`+dir+`","hook_event_name":"`+event+`"}`), &b,
			eventtable.Event{Command: "init"}, func(*Run) string { return out }, Options{Deadline: 5 * time.Second, Getenv: projectEnv(dir)})
		all, _ := events.Read(logs.DirFor(dir))
		if got := all[len(all)-1]; got.Bytes != len(b.String()) {
			t.Fatalf("the event line is not this run's: %+v", got)
		}
		return all[len(all)-1]
	}
	if e := run("SessionStart", "## session-hooks\n\n3 commits ahead.\n"); e.Injected != "## session-hooks\n\n3 commits ahead.\n" {
		t.Errorf("SessionStart's event line keeps %q", e.Injected)
	}
	if e := run("SessionEnd", "# Session End\n"); e.Injected != "" {
		t.Errorf("SessionEnd's output reaches no model, yet %q was kept", e.Injected)
	}
	long := strings.Repeat("line of output\n", 5000)
	if e := run("PreCompact", long); e.Injected == "" || logs.Len(e.Injected) > claude.Budget {
		t.Errorf("a long output kept as %d characters", logs.Len(e.Injected))
	}
}

// Every row of the event table is answered: a row without a handler would
// fail at its first run.
func TestEveryRowHasAHandler(t *testing.T) {
	for _, e := range eventtable.Table {
		if handlerOf(e) == nil {
			t.Errorf("%v has no handler", e.Args())
		}
	}
	if len(handlers) != len(eventtable.Commands())+len(eventtable.Flags("init")) {
		t.Errorf("%d handlers for the table's %d rows of distinct arguments", len(handlers), len(eventtable.Commands())+len(eventtable.Flags("init")))
	}
}
