package install

import (
	"testing"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// The entries come from the event table by Codex's names and matchers,
// SessionEnd within Codex's 3 seconds; the long-running checks on Stop
// only when asked.
func TestEntriesComeFromTheEventTable(t *testing.T) {
	want := []hookfile.Entry{
		{Event: "SessionStart", Matcher: "startup|resume|clear|fork", Command: "sh --agent codex init", Timeout: 30},
		{Event: "SessionStart", Matcher: "compact", Command: "sh --agent codex init --compact-recovery", Timeout: 30},
		{Event: "PreCompact", Command: "sh --agent codex pre-compact", Timeout: 30},
		{Event: "SessionEnd", Command: "sh --agent codex end", Timeout: 3},
	}
	got := Entries("sh", false)
	if len(got) != len(want) {
		t.Fatalf("Entries = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	lr := Entries("sh", true)
	if len(lr) != 5 || lr[4] != (hookfile.Entry{Event: "Stop", Command: "sh --agent codex stop", Timeout: 30}) {
		t.Errorf("with the long-running checks: %+v", lr)
	}
}

func TestLongRunningIsAsAskedElseAsWired(t *testing.T) {
	yes, no := true, false
	with, _ := hookfile.Install(nil, Entries("session-hooks", true), "")
	without, _ := hookfile.Install(nil, Entries("session-hooks", false), "")
	for _, tc := range []struct {
		name  string
		asked *bool
		doc   []byte
		want  bool
	}{
		{"asked on", &yes, without.JSON, true},
		{"asked off", &no, with.JSON, false},
		{"wired", nil, with.JSON, true},
		{"not wired", nil, without.JSON, false},
		{"no file", nil, nil, false},
		{"a file Codex would not read", nil, []byte("{"), false},
	} {
		if got := longRunning(tc.asked, tc.doc); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
