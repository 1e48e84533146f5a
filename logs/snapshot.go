package logs

import (
	"fmt"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/internal/markdown"
)

// TimeFormat is JavaScript's Date.toISOString, which the Node logs used.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// RenderSnapshot lays a snapshot out (pre-compact-state.md); sections the
// transcript had nothing for are left out.
func RenderSnapshot(s facts.Snapshot, l Limits) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Branch:** %s\n**Trigger:** %s\n**Time:** %s\n", Code(s.Branch), Code(s.Trigger), Code(s.Time))
	if s.Session != "" {
		fmt.Fprintf(&b, "**Session:** %s\n", Code(s.Session))
	}
	if t := s.ContextTokens; t != nil && s.ContextWindow > 0 {
		fmt.Fprintf(&b, "**Context:** %s of %s tokens (%d%%)\n", Thousands(*t), Thousands(s.ContextWindow), *t*100/s.ContextWindow)
	}
	b.WriteString("\n### Recent commits\n")
	b.WriteString(Fence(orError(s.Commits, s.CommitsError, "(no commits)", l)))
	b.WriteString("\n### Uncommitted changes\n")
	b.WriteString(Fence(orError(s.Uncommitted, s.UncommitError, "(clean working tree)", l)))
	b.WriteString("\n### What was being worked on\n\n")
	for _, t := range s.AssistantTexts {
		fmt.Fprintf(&b, "> %s\n\n", t)
	}
	if len(s.AssistantTexts) == 0 && len(s.Notes) == 0 {
		b.WriteString("_No assistant text found in the transcript._\n\n")
	}
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "_%s_\n\n", oneLine(n, l.MaxLineLen))
	}
	if s.LastPrompt != "" {
		// Quoted line by line: the request keeps its lines and its own
		// code blocks (a fence inside a quote stays inside it), and is
		// prose, which fitting the snapshot to a budget never shortens.
		b.WriteString("### Last user prompt\n\n" + Quote(s.LastPrompt))
	}
	if len(s.Tasks) > 0 {
		b.WriteString("### Task list\n\n")
		for _, t := range s.Tasks {
			b.WriteString(TaskLine(t) + "\n")
		}
		b.WriteString("\n")
	}
	if len(s.FilesTouched) > 0 {
		b.WriteString("### Files written or edited since the last compaction\n\n")
		for _, f := range shorten(s.FilesTouched, l) {
			fmt.Fprintf(&b, "- %s\n", Code(f))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Quote is s as a markdown blockquote, every line of it, then a blank
// line.
func Quote(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
	}
	return b.String() + "\n"
}

func orError(lines []string, err, empty string, l Limits) []string {
	switch {
	case err != "":
		return []string{err}
	case len(lines) == 0:
		return []string{empty}
	}
	return shorten(lines, l)
}

// TaskLine is a task as a markdown checklist item.
func TaskLine(t facts.Task) string {
	switch t.Status {
	case "completed":
		return "- [x] " + t.Content
	case "in_progress":
		return "- [ ] " + t.Content + " _(in progress)_"
	default:
		return "- [ ] " + t.Content
	}
}

// SnapshotInfo is what recovery needs to know about a saved snapshot.
type SnapshotInfo struct {
	Session string
	Time    time.Time
}

// ReadSnapshotInfo reads the **Session:** and **Time:** fields back from a
// snapshot's first paragraph.
func ReadSnapshotInfo(src []byte) SnapshotInfo {
	var info SnapshotInfo
	blocks := markdown.Blocks(src)
	if len(blocks) == 0 || blocks[0].Kind != markdown.Paragraph {
		return info
	}
	// A paragraph's lines, without their indentation (CommonMark drops it).
	lines := strings.SplitAfter(string(src[blocks[0].Start:blocks[0].End]), "\n")
	for i := range lines {
		lines[i] = strings.TrimLeft(lines[i], " \t")
	}
	para := strings.Join(lines, "")
	info.Session = fieldAfter(para, "Session:")
	info.Time, _ = time.Parse(TimeFormat, fieldAfter(para, "Time:"))
	return info
}

// fieldAfter is the code span after the strong label (**label**) in a
// paragraph, before the next strong text; "" when there is none. A run of
// backticks no run of the same length closes is text, as CommonMark reads
// it.
func fieldAfter(para, label string) string {
	i := strings.Index(para, "**"+label+"**")
	if i < 0 {
		return ""
	}
	rest := para[i+len(label)+4:]
	for {
		tick := strings.IndexByte(rest, '`')
		if tick < 0 || strings.Contains(rest[:tick], "**") {
			return ""
		}
		n := backticks(rest[tick:])
		if content, ok := codeSpan(rest[tick+n:], n); ok {
			return strings.TrimSpace(content)
		}
		rest = rest[tick+n:]
	}
}

// codeSpan is the text before the first run of exactly n backticks.
func codeSpan(s string, n int) (string, bool) {
	for at := 0; at < len(s); {
		j := strings.IndexByte(s[at:], '`')
		if j < 0 {
			break
		}
		run := backticks(s[at+j:])
		if run == n {
			return s[:at+j], true
		}
		at += j + run
	}
	return "", false
}

func backticks(s string) int { return len(s) - len(strings.TrimLeft(s, "`")) }

// FitMarkdown shortens a markdown document to budget characters by cutting
// its long code blocks and lists to their first lines, "… and N more" after
// them, fewer and fewer until it fits. Prose is kept whole; only as a last
// resort is the end cut.
func FitMarkdown(src string, budget int) string {
	if Len(src) <= budget {
		return src
	}
	regions := listRegions([]byte(src))
	for keep := 100; keep >= 0; keep /= 2 {
		if s := shrinkRegions(src, regions, keep); Len(s) <= budget {
			return s
		}
		if keep == 0 {
			break
		}
	}
	return Cut(shrinkRegions(src, regions, 0), budget)
}

// region is a run of whole lines (a code block's content or a list) that
// may be shortened; prefix starts the "… and N more" line.
type region struct {
	start, stop int
	prefix      string
}

func listRegions(src []byte) []region {
	var out []region
	for _, b := range markdown.Blocks(src) {
		switch {
		case b.Kind == markdown.FencedCode && b.Content[1] > b.Content[0]:
			out = append(out, region{b.Content[0], b.Content[1], ""})
		case b.Kind == markdown.List && b.Text >= 0:
			out = append(out, region{b.Text, b.TextEnd, "- "})
		}
	}
	return out
}

func shrinkRegions(src string, regions []region, keep int) string {
	var b strings.Builder
	at := 0
	for _, r := range regions {
		b.WriteString(src[at:r.start])
		lines := strings.SplitAfter(src[r.start:r.stop], "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) <= keep+1 {
			b.WriteString(src[r.start:r.stop])
		} else {
			b.WriteString(strings.Join(lines[:keep], ""))
			fmt.Fprintf(&b, "%s… and %d more\n", r.prefix, len(lines)-keep)
		}
		at = r.stop
	}
	b.WriteString(src[at:])
	return b.String()
}

// Thousands writes n with commas between its groups of three digits.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
