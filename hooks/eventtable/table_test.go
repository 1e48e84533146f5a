package eventtable

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/readme"
)

// The README's table of events is the table's own rendering: a row added
// to the table without the README fails here.
func TestREADMEEventTableIsTheTable(t *testing.T) {
	readme.CheckBlock(t, "../../README.md", "event table", Markdown(), "UPDATE_README=1 go test ./hooks/eventtable")
}

func TestForkStartsLikeAStartupAndCompactRecovers(t *testing.T) {
	for source, wantFlag := range map[string]string{protocol.SourceStartup: "", protocol.SourceResume: "", protocol.SourceClear: "",
		protocol.SourceFork: "", protocol.SourceCompact: "compact-recovery"} {
		var rows []Event
		for _, e := range Table {
			if e.Event == protocol.SessionStart && slices.Contains(strings.Split(e.Matcher, "|"), source) {
				rows = append(rows, e)
			}
		}
		if len(rows) != 1 || rows[0].Command != "init" || rows[0].Flag != wantFlag {
			t.Errorf("source %s is matched by %+v", source, rows)
		}
	}
}

func TestLookupSelectsTheRowOfTheFlagSet(t *testing.T) {
	e, ok := Lookup("init", func(f string) bool { return f == "compact-recovery" })
	if !ok || e.Matcher != protocol.SourceCompact {
		t.Errorf("init --compact-recovery is %+v", e)
	}
	e, ok = Lookup("init", func(string) bool { return false })
	if !ok || e.Flag != "" {
		t.Errorf("init is %+v", e)
	}
	if _, ok := Lookup("nonesuch", func(string) bool { return false }); ok {
		t.Error("an unknown subcommand was found")
	}
}

func TestEveryRowHasATimeoutAndADeadline(t *testing.T) {
	for _, e := range Table {
		if e.Timeout <= 0 || e.Deadline <= 0 || e.Event == "" {
			t.Errorf("%v is incomplete", e.Args())
		}
		if e.Deadline >= timeoutDuration(e.Timeout) {
			t.Errorf("%v: deadline %s is not under its settings timeout of %ds", e.Args(), e.Deadline, e.Timeout)
		}
	}
}

func TestUsageLineNamesEverySubcommand(t *testing.T) {
	want := "Usage: session-hooks <init|pre-compact|post-compact|end|stop|post-tool|model-switch> [--compact-recovery]"
	if got := UsageLine(); got != want {
		t.Errorf("got %q", got)
	}
}

func timeoutDuration(seconds int) time.Duration { return time.Duration(seconds) * time.Second }
