package logs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/hooks/facts"
)

// Fit halves the lines per list until the text fits, and takes the first
// rendering that does, even one of exactly the budget: a fuller text is
// never traded for a shorter one.
func TestFitTakesTheFullestRenderingThatFits(t *testing.T) {
	render := func(l Limits) string { return strings.Repeat("a", 10*l.MaxLines+5) }
	tests := []struct {
		budget, want int
	}{
		{5000, 2005}, // 200 lines
		{2005, 2005},
		{2004, 1005}, // 100 lines
		{255, 255},   // 25 lines
		{254, 125},   // 12 lines
		{5, 5},       // no lines
	}
	for _, tt := range tests {
		if got := Fit(render, tt.budget); Len(got) != tt.want {
			t.Errorf("budget %d: %d characters, want %d", tt.budget, Len(got), tt.want)
		}
	}
	if got := Fit(render, 4); !strings.Contains(got, "output cut") {
		t.Errorf("a text that never fits is not cut: %q", got)
	}
}

func TestCutKeepsWholeLinesUpToTheBudget(t *testing.T) {
	const marker = "\n… (output cut to fit the size Claude Code accepts)\n"
	s := strings.Repeat("0123456789\n", 20)
	tests := []struct {
		name   string
		budget int
		want   string
	}{
		{"a text of exactly the budget", Len(s), s},
		{"room for one line and its newline", Len(marker) + 11, "0123456789" + marker},
		{"room for one line but not its newline", Len(marker) + 10, marker},
		{"room for two lines", Len(marker) + 22, "0123456789\n0123456789" + marker},
	}
	for _, tt := range tests {
		if got := Cut(s, tt.budget); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A command's totals line stays last; a list one line over the limit is
// shown whole rather than trading its last line for "… and 1 more".
func TestAListOneLineOverTheLimitKeepsItsTotalsLine(t *testing.T) {
	l := Limits{MaxLines: 3, MaxLineLen: 100}
	lines := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprint("file", i))
		}
		return append(out, "totals")
	}
	tests := []struct {
		files int
		want  string
	}{
		{2, "file0 file1 totals"},
		{3, "file0 file1 file2 totals"},
		{4, "file0 file1 file2 … and 1 more totals"},
		{6, "file0 file1 file2 … and 3 more totals"},
	}
	for _, tt := range tests {
		if got := strings.Join(shortenCommand(lines(tt.files), true, l), " "); got != tt.want {
			t.Errorf("%d files: %q, want %q", tt.files, got, tt.want)
		}
	}
	if got := strings.Join(shortenCommand(lines(3), false, l), " "); got != "file0 file1 file2 … and 1 more" {
		t.Errorf("without a totals line: %q", got)
	}
}

func TestOneLineCutsOnlyPastTheLimit(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"héllo", 5, "héllo"},
		{"héllo", 4, "héll…"},
		{"héllo", 0, "héllo"}, // no limit
	}
	for _, tt := range tests {
		if got := oneLine(tt.s, tt.n); got != tt.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// A snapshot shows the sections it has facts for, and no heading without
// them: an empty "Task list" reads as "no tasks" where none were seen.
func TestASnapshotHasOnlyTheSectionsItHasFactsFor(t *testing.T) {
	s := facts.Snapshot{Branch: "main", Trigger: "auto", Notes: []string{"the transcript could not be read"}}
	got := RenderSnapshot(s, LogLimits)
	for _, never := range []string{"### Task list", "### Files written", "No assistant text found", "### Last user prompt"} {
		if strings.Contains(got, never) {
			t.Errorf("the snapshot has %q:\n%s", never, got)
		}
	}
	if !strings.Contains(got, "_the transcript could not be read_") {
		t.Errorf("the note is missing:\n%s", got)
	}
	if got := RenderSnapshot(facts.Snapshot{}, LogLimits); !strings.Contains(got, "_No assistant text found in the transcript._") {
		t.Errorf("a snapshot with neither text nor notes does not say so:\n%s", got)
	}
}

// FitMarkdown shortens code blocks and lists, each to its first lines and
// "… and N more", fewer and fewer until the text fits; a block just one
// line longer than it keeps is kept whole.
func TestFitMarkdownShortensBlocksAndListsToTheirFirstLines(t *testing.T) {
	block := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "line %02d\n", i)
		}
		return b.String()
	}
	items := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "- item %02d\n", i)
		}
		return b.String()
	}
	doc := "# Title\n\nSome prose.\n\n```\n" + block(20) + "```\n\n" + items(9) + "\nMore prose.\n"
	fewest := "# Title\n\nSome prose.\n\n```\n… and 20 more\n```\n\n- … and 9 more\n\nMore prose.\n"
	tests := []struct {
		name   string
		budget int
		want   string
	}{
		{"a document of exactly the budget", Len(doc), doc},
		{"one character less: 12 lines of the block, the 9 items whole",
			Len(doc) - 1, "# Title\n\nSome prose.\n\n```\n" + block(12) + "… and 8 more\n```\n\n" + items(9) + "\nMore prose.\n"},
		{"the fewest lines",
			Len(fewest), "# Title\n\nSome prose.\n\n```\n… and 20 more\n```\n\n- … and 9 more\n\nMore prose.\n"},
	}
	for _, tt := range tests {
		if got := FitMarkdown(doc, tt.budget); got != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
	if got := FitMarkdown(doc, Len(fewest)-1); Len(got) >= Len(fewest) || !strings.HasPrefix(got, "# Title\n") || !strings.HasSuffix(got, "output cut to fit the size Claude Code accepts)\n") {
		t.Errorf("a document that does not fit even shortened is not cut: %q", got)
	}
}

// A list nested in a quote or indented is shortened by whole lines, its
// markers and indentation kept.
func TestFitMarkdownShortensAnIndentedListByWholeLines(t *testing.T) {
	doc := "Intro.\n\n  - one\n  - two\n  - three\n  - four\n\nEnd.\n"
	want := "Intro.\n\n  - one\n- … and 3 more\n\nEnd.\n"
	if got := FitMarkdown(doc, Len(want)); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}
