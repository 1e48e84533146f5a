package logs

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
)

var sampleTime = time.Date(2026, 11, 21, 13, 30, 0, 0, time.UTC)

func sampleSnapshot() facts.Snapshot {
	return facts.Snapshot{
		Branch: "feature/x", Trigger: "auto", Session: "abc-123",
		Time:           sampleTime.Format(TimeFormat),
		Commits:        []string{"1da3cfa Enable rule"},
		AssistantTexts: []string{"first", "second"},
		LastPrompt:     "please fix the bug",
		Tasks:          []facts.Task{{Content: "Write tests", Status: "completed"}, {Content: "Fix bug", Status: "in_progress"}, {Content: "Ship", Status: "pending"}},
		FilesTouched:   []string{"main.go"},
	}
}

func TestSnapshotRendersTheNodeLayoutFirst(t *testing.T) {
	want := "**Branch:** `feature/x`\n**Trigger:** `auto`\n**Time:** `2026-11-21T13:30:00.000Z`\n**Session:** `abc-123`\n\n" +
		"### Recent commits\n```text\n1da3cfa Enable rule\n```\n\n" +
		"### Uncommitted changes\n```text\n(clean working tree)\n```\n\n" +
		"### What was being worked on\n\n> first\n\n> second\n\n" +
		"### Last user prompt\n\n> please fix the bug\n\n" +
		"### Task list\n\n- [x] Write tests\n- [ ] Fix bug _(in progress)_\n- [ ] Ship\n\n" +
		"### Files written or edited since the last compaction\n\n- `main.go`\n\n"
	if got := RenderSnapshot(sampleSnapshot(), LogLimits); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestReadSnapshotInfoRoundTrips(t *testing.T) {
	s := sampleSnapshot()
	info := ReadSnapshotInfo([]byte(RenderSnapshot(s, LogLimits)))
	if info.Session != "abc-123" || !info.Time.Equal(sampleTime) {
		t.Errorf("got %+v", info)
	}
	if info := ReadSnapshotInfo([]byte("# not a snapshot\n")); info.Session != "" || !info.Time.IsZero() {
		t.Errorf("got %+v from a foreign file", info)
	}
	node := "**Branch:** `main`\n**Trigger:** `auto`\n**Time:** `2026-11-21T13:30:00.000Z`\n\n### Recent commits\n"
	if info := ReadSnapshotInfo([]byte(node)); info.Session != "" || info.Time.IsZero() {
		t.Errorf("a Node snapshot (no session) read as %+v", info)
	}
}

func TestFitMarkdownShortensListsAndBlocksButKeepsProse(t *testing.T) {
	s := sampleSnapshot()
	for i := 0; i < 3000; i++ {
		s.Uncommitted = append(s.Uncommitted, fmt.Sprintf("src/file-%04d.go", i))
		s.FilesTouched = append(s.FilesTouched, fmt.Sprintf("/p/file-%04d.go", i))
	}
	full := RenderSnapshot(s, LogLimits)
	got := FitMarkdown(full, 6000)
	if Len(got) > 6000 {
		t.Fatalf("%d characters", Len(got))
	}
	for _, keep := range []string{"> first", "> second", "> please fix the bug", "- [ ] Ship", "src/file-0000.go", "more\n```", "- … and "} {
		if !strings.Contains(got, keep) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
	if info := ReadSnapshotInfo([]byte(got)); info.Session != "abc-123" {
		t.Errorf("fitting lost the session field")
	}
}

// The context is said against its window, and only when both are known.
func TestSnapshotSaysTheContextAgainstItsWindow(t *testing.T) {
	tokens := 1234567
	for _, tc := range []struct {
		tokens *int
		window int
		want   string
	}{
		{&tokens, 2000000, "**Context:** 1,234,567 of 2,000,000 tokens (61%)\n"},
		{&tokens, 0, ""},
		{nil, 2000000, ""},
	} {
		out := RenderSnapshot(facts.Snapshot{Branch: "main", ContextTokens: tc.tokens, ContextWindow: tc.window}, LogLimits)
		if got := strings.Contains(out, "**Context:**"); got != (tc.want != "") || tc.want != "" && !strings.Contains(out, tc.want) {
			t.Errorf("tokens %v, window %d:\n%s", tc.tokens, tc.window, out)
		}
	}
	if got := Thousands(999); got != "999" {
		t.Errorf("Thousands(999) = %q", got)
	}
}
