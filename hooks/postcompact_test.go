package hooks

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

func TestLostInSummaryNamesWhatTheSummaryDoesNotMention(t *testing.T) {
	snap := facts.Snapshot{
		Branch:       "feature/parser",
		LastPrompt:   "Please make the parser accept trailing commas",
		Tasks:        []facts.Task{{Content: "Write the tests", Status: "completed"}, {Content: "Fix the lexer", Status: "in_progress"}, {Content: "Ship it", Status: "pending"}},
		FilesTouched: []string{"src/lexer.go", "docs/notes.md"},
	}
	tests := []struct {
		name, summary string
		want          []string
	}{
		{"empty summary loses all but finished tasks", "", []string{"branch feature/parser", "task: Fix the lexer", "task: Ship it", "the last request", "file src/lexer.go", "file docs/notes.md"}},
		{"everything mentioned, in other case and wrapping",
			"On FEATURE/PARSER the user asked: please make the parser\naccept trailing commas. Next: fix the lexer, then ship it. Edited lexer.go and docs/notes.md.", nil},
		{"a file by its name only", "feature/parser: please make the parser accept trailing commas; fix the lexer; ship it; notes.md, lexer.go", nil},
		{"a word inside another is not a mention", "Remaining: feature/parsers, shipit, lexer.gone",
			[]string{"branch feature/parser", "task: Fix the lexer", "task: Ship it", "the last request", "file src/lexer.go", "file docs/notes.md"}},
		{"the branch only", "We are on feature/parser.", []string{"task: Fix the lexer", "task: Ship it", "the last request", "file src/lexer.go", "file docs/notes.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lostInSummary(snap, tt.summary); !slices.Equal(got, tt.want) {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestPostCompactRecordsTheCompactionAndWhatWasLost(t *testing.T) {
	dir := t.TempDir()
	d := logs.DirFor(dir)
	snap := facts.Snapshot{Branch: "main", LastPrompt: "write the notes", FilesTouched: []string{"notes.txt"}}
	if err := d.WriteSealed(logs.SessionFile("s1", SnapshotFacts), []byte(facts.JSON(snap)), false); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	Execute(payload(dir, "PostCompact", `,"trigger":"auto","compact_summary":"The user asked to write the notes on main."`), &out,
		rowOf(t, "post-compact"), Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: projectEnv(dir)})
	if out.Len() != 0 {
		t.Errorf("post-compact printed %q; Claude Code reads nothing of it", out.String())
	}
	all, err := events.Read(d)
	if err != nil || len(all) != 1 || all[0].Compaction == nil {
		t.Fatalf("events %+v, %v", all, err)
	}
	c := all[0].Compaction
	if c.Trigger != "auto" || c.SummaryChars != 42 || len(c.SummarySHA256) != 64 || !slices.Equal(c.Lost, []string{"file notes.txt"}) {
		t.Errorf("recorded %+v", c)
	}
	s, _ := state.Load(d, "s1")
	if s == nil || len(s.Compactions) != 1 || !slices.Equal(s.Compactions[0].Lost, c.Lost) {
		t.Errorf("state %+v", s)
	}
}

func TestPostCompactWithAnEmptySummaryAndNoSnapshot(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	Execute(payload(dir, "PostCompact", `,"trigger":"manual","compact_summary":""`), &out, rowOf(t, "post-compact"),
		Options{Deadline: 5 * time.Second, JSON: true, NoLog: true, Getenv: func(string) string { return "" }})
	for _, want := range []string{`"summary_chars": 0`, `"summary_sha256": ""`, `"snapshot_found": false`, `"lost": []`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude")); err == nil {
		t.Error("--no-log wrote .claude")
	}
}

// Thirty post-compact runs of one session at once once recorded 25
// compactions: each loaded the same state and saved over the others.
func TestConcurrentRunsOfOneSessionLoseNoCompaction(t *testing.T) {
	dir := t.TempDir()
	const runs = 30
	var wg sync.WaitGroup
	for range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Execute(payload(dir, "PostCompact", `,"trigger":"auto","compact_summary":"x"`), io.Discard,
				rowOf(t, "post-compact"), Options{Deadline: 30 * time.Second, Now: func() time.Time { return clock }, Getenv: projectEnv(dir)})
		}()
	}
	wg.Wait()
	s, note := state.Load(logs.DirFor(dir), "s1")
	if s == nil || len(s.Compactions) != runs {
		t.Fatalf("state %+v (%s): want %d compactions", s, note, runs)
	}
}

// projectEnv is an environment in which Claude Code names dir as the
// project (a test directory that is no git work tree may hold logs).
func projectEnv(dir string) func(string) string {
	return func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return dir
		}
		return ""
	}
}

// A request longer than 60 characters was looked for by its first 60,
// cut mid-word, and read as lost from a summary that held it word for word.
func TestALongRequestTheSummaryHoldsIsNotLost(t *testing.T) {
	snap := facts.Snapshot{LastPrompt: "Please refactor the configuration loaders so that environment overrides win over files"}
	summary := "The user asked: please refactor the configuration loaders so that environment overrides win over files. Work began."
	if got := lostInSummary(snap, summary); len(got) != 0 {
		t.Errorf("lost %q from a summary that holds the request", got)
	}
	if got := lostInSummary(snap, "The user asked for a refactor of the loader."); !slices.Equal(got, []string{"the last request"}) {
		t.Errorf("got %q from a summary that does not hold it", got)
	}
}

func TestAModelSwitchSaysTheNewWindowAndWhereTheContextStands(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string {
		switch k {
		case "CLAUDE_PROJECT_DIR":
			return dir
		case "SESSION_HOOKS_LONG_RUNNING":
			return "1"
		}
		return ""
	}
	var out strings.Builder
	Execute(payload(dir, "PostModelSwitch", `,"from_model":"claude-opus-5-5","to_model":"claude-opus-4-1","context_tokens":180000`), &out,
		rowOf(t, "model-switch"), Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: env})
	got := out.String()
	for _, w := range []string{`"hookEventName":"PostModelSwitch"`, "The model is now `claude-opus-4-1` (was `claude-opus-5-5`): its context window is 200000 tokens.",
		"context 180,000 tokens: **"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in %s", w, got)
		}
	}
	s, _ := state.Load(logs.DirFor(dir), "s1")
	if s == nil || len(s.Announced) == 0 {
		t.Errorf("the thresholds the new window passed were not recorded: %+v", s)
	}
	out.Reset()
	Execute(payload(dir, "PostModelSwitch", `,"from_model":"a","to_model":"claude-opus-4-1"`), &out,
		rowOf(t, "model-switch"), Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: projectEnv(dir)})
	if out.Len() != 0 {
		t.Errorf("without the long-running checks it said %q", out.String())
	}
}

// A summary that keeps a task, a request or a branch in other letter case
// or with other punctuation around its words keeps it: no false claim that
// it was lost.
func TestAFactTheSummaryKeepsInOtherCaseOrPunctuationIsNotLost(t *testing.T) {
	snap := facts.Snapshot{Branch: "feature/parseConfig", LastPrompt: "Fix the lexer's handling of CRLF",
		Tasks: []facts.Task{{Content: "Add the parseConfig helper", Status: "pending"}, {Content: "Rename STRASSE to Straße", Status: "in_progress"}}}
	summary := "Work on **feature/parseconfig**: the user asked to fix the Lexer’s handling of `crlf`. Open: add the `ParseConfig` helper; rename strasse to STRASSE."
	if lost := lostInSummary(snap, summary); len(lost) != 0 {
		t.Errorf("claimed lost: %q", lost)
	}
	if lost := lostInSummary(snap, "The user asked for a parser."); len(lost) != 4 {
		t.Errorf("a summary keeping none of them lost %q", lost)
	}
}
