package wiring

import (
	"strings"
	"testing"
	"time"
)

func seconds(f float64) *float64 { return &f }

// status's text says, for every state of a file, what it is, and for each
// entry its event and matcher, its command, its timeout (or the client's
// default, or none), its form, its trust and whether a plugin's entry
// runs; then that all is wired, or each warning.
func TestStatusTextSaysEveryFact(t *testing.T) {
	st := Status{Scopes: []Scope{
		{Scope: "project", Path: "/p/s.json", State: "present", Hooks: []Hook{
			{Event: "SessionStart", Matcher: "startup", Command: "session-hooks init", Timeout: seconds(30), Exec: true},
			{Event: "Stop", Command: "session-hooks stop", Trust: "trusted"},
			{Event: "SessionEnd", Command: "session-hooks end", Timeout: seconds(1.5)}}},
		{Scope: "local", Path: "/p/l.json", State: "absent"},
		{Scope: "user", Path: "/u/s.json", State: "unreadable", Error: "bad JSON"},
		{Scope: "team", Path: "/t/s.json", State: "not-loaded", Error: "a comment"},
		{Scope: "other", Path: "/o/s.json", State: "present"},
		{Scope: "plugin p", Path: "/x/hooks.json", State: "present", Hooks: []Hook{
			{Event: "SessionEnd", Command: "bridge end", StandsDown: "project"}, {Event: "PreCompact", Command: "bridge pre-compact"}}},
	}}
	got := st.Text(Reader{Label: "Some CLI", DefaultTimeout: 60 * time.Second})
	for _, want := range []string{
		"project (/p/s.json):\n",
		"  SessionStart [startup] → session-hooks init (timeout 30s, exec form)\n",
		"  Stop → session-hooks stop (default timeout 60s) [trusted]\n",
		"  SessionEnd → session-hooks end (timeout 1.5s)\n",
		"local (/p/l.json): not present\n",
		"user (/u/s.json): unreadable: bad JSON\n",
		"team (/t/s.json): NOT LOADED by Some CLI (a comment)\n",
		"other (/o/s.json): no hooks\n",
		"  SessionEnd → bridge end (default timeout 60s): stands down, the project settings run it\n",
		"  PreCompact → bridge pre-compact (default timeout 60s): runs\n",
		"\nEvery session event is wired to session-hooks.\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if got := (Status{}).Text(Reader{}); got != "\nEvery session event is wired to session-hooks.\n" {
		t.Errorf("nothing to say: %q", got)
	}
	st.Warnings = []string{"not wired: x", "not wired: y"}
	if got := st.Text(Reader{}); strings.Contains(got, "Every session event") || !strings.HasSuffix(got, "\nwarning: not wired: x\nwarning: not wired: y\n") ||
		!strings.Contains(got, "Stop → session-hooks stop (no timeout)") {
		t.Errorf("with warnings:\n%s", got)
	}
}

// doctor's text says each run of ours (ok with its time and timeout, or
// FAIL or SLOW with why), each wiring problem, a start's output past the
// client's limit with its sources, what stands down and what was not
// run, the logs, the transcripts, the last recovery and git; what does
// not apply is not said.
func TestDoctorTextSaysEveryFact(t *testing.T) {
	d := Doctor{Project: "/p", Runs: []DoctorRun{
		{Event: "SessionStart", Command: "s init", Result: "ok", Ours: true, DurationMS: 12, TimeoutMS: 30000, OutputLen: 7000},
		{Event: "SessionStart", Command: "s init --compact-recovery", Result: "ok", Ours: true, TimeoutMS: 30000, OutputLen: 9000},
		{Event: "SessionStart", Command: "other", Result: "ok", OutputLen: 6000},
		{Event: "PreCompact", Command: "s pre-compact", Result: "fail", Problem: "exit 2", Ours: true},
		{Event: "SessionEnd", Command: "s end", Result: "slow", Problem: "2s, over 1s", Ours: true}},
		Wiring: []string{"no matcher runs init"}, StartOutput: 13000, StandsDown: []string{"SessionEnd → bridge end"},
		NotRun: []string{"touch x"}, LogsDir: "/p/.claude/logs", Transcripts: "/c/projects/p", TranscriptN: 2,
		LastRecovery: "delivered", GitEngine: "fast"}
	got := d.Text(Reader{Label: "Some CLI", Limit: 10000})
	for _, want := range []string{
		"Project: /p (Some CLI)\n\n",
		"ok   SessionStart → s init: 12ms (timeout 30s)\n",
		"FAIL PreCompact → s pre-compact: exit 2\n",
		"SLOW SessionEnd → s end: 2s, over 1s\n",
		"FAIL no matcher runs init\n",
		"FAIL our SessionStart hooks print 13000 characters together at a startup; Some CLI replaces output over 10000 with a short preview:\n       7000 from s init\n",
		"skip SessionEnd → bridge end: the plugin stands down for it\n",
		"Not run: 1 other SessionStart command(s), which share Some CLI's 10000-character limit with ours (doctor runs nothing it did not write):\n       touch x\n",
		"\nLogs: /p/.claude/logs is writable\n",
		"Transcripts: /c/projects/p (2 transcript(s))\n",
		"Last recovery after a compaction: delivered\n",
		"Git engine: fast\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	for _, not := range []string{"9000 from", "6000 from", "ok   SessionStart → other", "No event is wired"} {
		if strings.Contains(got, not) {
			t.Errorf("%q in:\n%s", not, got)
		}
	}
	empty := Doctor{Project: "/p", LogsError: "read-only", GitError: "not a repository", Transcripts: "/c/projects/p", StartOutput: 20000}
	got = empty.Text(Reader{Label: "Other CLI"})
	for _, want := range []string{"No event is wired to session-hooks: run session-hooks install.\n", "\nLogs: read-only\n",
		"Transcripts: /c/projects/p (none yet)\n", "Git: not a repository\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "FAIL our SessionStart") || strings.Contains(got, "Git engine") || strings.Contains(got, "Not run") {
		t.Errorf("a limit not measured, or an engine not known, is said:\n%s", got)
	}
	if got := (Doctor{Project: "/p", Wiring: []string{"x"}}).Text(Reader{}); strings.Contains(got, "No event is wired") || strings.Contains(got, "Transcripts") {
		t.Errorf("said twice, or not applicable:\n%s", got)
	}
}

// A start's output of exactly the client's limit is injected whole: only
// one character more is a problem.
func TestTheStartOutputLimitIsTheClients(t *testing.T) {
	for out, problem := range map[int]bool{10000: false, 10001: true} {
		d := Doctor{StartOutput: out}
		if got := strings.Contains(d.Text(Reader{Label: "C", Limit: 10000}), "FAIL our SessionStart hooks print"); got != problem {
			t.Errorf("%d characters: a problem %v", out, got)
		}
	}
}
