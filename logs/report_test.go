package logs

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestRenderKeepsTheNodeLayout(t *testing.T) {
	r := Report{
		Title: "Session Init",
		Meta: []Field{{Name: "Timestamp", Value: "2026-11-21T13:26:53.215Z"}, {Name: "Environment", Value: "Local", Plain: true},
			{Name: "Directory", Value: "/home/u/a|b"}},
		Commands: []Command{
			{Command: "git branch --show-current", Output: []string{"main"}, Duration: 9 * time.Millisecond},
			{Command: "git status --short", Duration: 4 * time.Millisecond},
			{Command: "git log --oneline -5 --decorate", Err: "fatal: not a git repository (or any of the parent directories): .git", Duration: 1500 * time.Millisecond},
		},
		Total: 388 * time.Millisecond,
	}
	want := "# Session Init\n\n| Field | Value |\n|-------|-------|\n" +
		"| **Timestamp** | `2026-11-21T13:26:53.215Z` |\n| **Environment** | Local |\n| **Directory** | `/home/u/a\\|b` |\n\n" +
		"---\n\n## Commands\n\n" +
		"**1. `git branch --show-current`** — OK, 9ms\n```text\nmain\n```\n\n" +
		"**2. `git status --short`** — OK, 4ms\n\n" +
		"**3. `git log --oneline -5 --decorate`** — FAIL (exit 128), 1.5s\n```text\nfatal: not a git repository (or any of the parent directories): .git\n```\n\n" +
		"**2/3 succeeded** in 388ms\n\n"
	if got := r.Render(LogLimits); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestFitKeepsThousandsOfUntrackedFilesUnderTheBudget(t *testing.T) {
	var lines []string
	for i := 0; i < 5000; i++ {
		lines = append(lines, fmt.Sprintf("?? generated/file-%05d.txt", i))
	}
	r := Report{Title: "Session Init", Commands: []Command{{Command: "git status --short", Output: lines}}}
	got := Fit(r.Render, 9500)
	if Len(got) > 9500 {
		t.Fatalf("%d characters", Len(got))
	}
	if !strings.Contains(got, "?? generated/file-00000.txt") || !strings.Contains(got, "more\n```") {
		t.Errorf("want the first files and an \"… and N more\" line:\n%s", got[len(got)-300:])
	}
	if full := r.Render(LogLimits); !strings.Contains(full, "file-01999.txt") || !strings.Contains(full, "… and 3000 more") {
		t.Errorf("the log keeps 2000 lines before cutting")
	}
}

func TestLenCountsAsJavaScriptDoes(t *testing.T) {
	tests := map[string]int{"abc": 3, "é": 1, "🎉": 2, "a🎉b": 4, "": 0}
	for s, want := range tests {
		if got := Len(s); got != want {
			t.Errorf("Len(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestCutEndsOnALineAndSaysSo(t *testing.T) {
	s := strings.Repeat("0123456789\n", 2000)
	got := Cut(s, 1000)
	if Len(got) > 1000 || !strings.HasSuffix(got, "fit the size Claude Code accepts)\n") || !strings.Contains(got, "0123456789\n…") {
		t.Errorf("got %d chars ending %q", Len(got), got[len(got)-80:])
	}
}

func TestCodeAndFenceCannotBeClosedByTheirContent(t *testing.T) {
	if got := Code("a`b"); got != "``a`b``" {
		t.Errorf("Code = %q", got)
	}
	if got := Code("`x"); got != "`` `x ``" {
		t.Errorf("Code = %q", got)
	}
	if got := Fence([]string{"```", "x"}); got != "````text\n```\nx\n````\n" {
		t.Errorf("Fence = %q", got)
	}
}

func TestDurationFormatsAsNode(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0ms", 999 * time.Millisecond: "999ms", time.Second: "1.0s", 12340 * time.Millisecond: "12.3s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestACutDiffStatKeepsItsTotalsLine(t *testing.T) {
	var lines []string
	for i := range 150 {
		lines = append(lines, fmt.Sprintf(" src/file%03d.go | 2 +-", i))
	}
	lines = append(lines, " 150 files changed, 150 insertions(+), 150 deletions(-)")
	l := Limits{MaxLines: 100, MaxLineLen: 200}
	for _, totals := range []bool{true, false} {
		r := Report{Title: "t", Commands: []Command{{Command: "git diff --stat", Output: lines, Totals: totals}}}
		out := r.Render(l)
		kept := strings.Contains(out, "… and 50 more\n 150 files changed, 150 insertions(+), 150 deletions(-)\n")
		if kept != totals {
			t.Errorf("totals %v: the totals line kept after the cut: %v\n%s", totals, kept, out[len(out)-300:])
		}
	}
}

// A line is redacted before it is cut: a token the cut goes through is
// not left in part.
func TestALineIsRedactedBeforeItIsCut(t *testing.T) {
	for _, at := range []int{280, 290, 299} {
		line := strings.Repeat("a", at) + " AKIAIOSFODNN7EXAMPLE " + strings.Repeat("b", 50)
		if got := oneLine(line, 300); strings.Contains(got, "AKIA") {
			t.Errorf("a key at %d left in part: %q", at, got[len(got)-40:])
		}
	}
	if got := oneLine("short AKIAIOSFODNN7EXAMPLE", 300); got != "short AKIAIOSFODNN7EXAMPLE" {
		t.Errorf("a line within the bound is changed here (the output's one policy cleans it): %q", got)
	}
}
