package logs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark/ast"

	"github.com/session-hooks/session-hooks/internal/markdown/goldmarktest"
)

// goldmarkRegions are the regions goldmark's syntax tree gives: each
// top-level fenced code block's content, each top-level list's lines.
func goldmarkRegions(src []byte) []region {
	var out []region
	for n := goldmarktest.Parse(src).FirstChild(); n != nil; n = n.NextSibling() {
		switch n.Kind() {
		case ast.KindFencedCodeBlock:
			if l := n.Lines(); l.Len() > 0 {
				out = append(out, region{l.At(0).Start, l.At(l.Len() - 1).Stop, ""})
			}
		case ast.KindList:
			start, stop := -1, -1
			ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
				if entering && c.Type() == ast.TypeBlock {
					for i := 0; i < c.Lines().Len(); i++ {
						if seg := c.Lines().At(i); start < 0 || seg.Start < start {
							start = seg.Start
						}
						stop = max(stop, c.Lines().At(i).Stop)
					}
				}
				return ast.WalkContinue, nil
			})
			if start < stop {
				for start > 0 && src[start-1] != '\n' {
					start--
				}
				for stop < len(src) && src[stop-1] != '\n' {
					stop++
				}
				out = append(out, region{start, stop, "- "})
			}
		}
	}
	return out
}

// The lists and code blocks a log may shorten are the ones goldmark's
// syntax tree gives, on documents made of what the long-running sections
// and a snapshot hold.
func TestTheRegionsToShortenAreGoldmarks(t *testing.T) {
	lines := []string{"## Long-running agent", "**Next:** the lexer", "- `src/a.go`", "- `src/b.go`", "  - nested",
		"1. feature one", "2. feature two", "```text", "```", " M a.go", "?? b.go", "… and 3 more", "Prose.",
		"", "", "> quoted", "---", "    code", "Title", "==="}
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 20000 {
		var doc []string
		for range 1 + rng.IntN(14) {
			doc = append(doc, lines[rng.IntN(len(lines))])
		}
		src := []byte(strings.Join(doc, "\n"))
		if rng.IntN(2) == 0 {
			src = append(src, '\n')
		}
		if got, want := listRegions(src), goldmarkRegions(src); !slices.Equal(got, want) {
			t.Fatalf("round %d, %q:\ngot  %v\nwant %v", round, src, got, want)
		}
	}
}

// goldmarkSnapshotInfo is ReadSnapshotInfo as goldmark's inline tree
// reads it: a strong label, then the next code span before the next
// emphasis.
func goldmarkSnapshotInfo(src []byte) (session, when string) {
	para := goldmarktest.Parse(src).FirstChild()
	if para == nil || para.Kind() != ast.KindParagraph {
		return "", ""
	}
	plain := func(n ast.Node) string {
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		return b.String()
	}
	for n := para.FirstChild(); n != nil; n = n.NextSibling() {
		em, ok := n.(*ast.Emphasis)
		if !ok || em.Level != 2 {
			continue
		}
		value := ""
		for s := n.NextSibling(); s != nil; s = s.NextSibling() {
			if _, ok := s.(*ast.Emphasis); ok {
				break
			}
			if cs, ok := s.(*ast.CodeSpan); ok {
				value = strings.TrimSpace(plain(cs))
				break
			}
		}
		switch plain(em) {
		case "Session:":
			session = value
		case "Time:":
			when = value
		}
	}
	return session, when
}

// A snapshot's session and time are read back as goldmark reads them,
// whatever one line of session id holds (the payload's: backticks, stars,
// spaces; an id with a line break breaks the snapshot's markdown for any
// reader).
func TestTheSnapshotsSessionIsReadAsGoldmarkReadsIt(t *testing.T) {
	clock := time.Date(2026, 11, 27, 1, 2, 3, 0, time.UTC)
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "7", "-", "`", "``", "*", "**", " ", "_", "\\", "<", "\t"}
	for round := range 20000 {
		var id strings.Builder
		for range rng.IntN(10) {
			id.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		src := []byte(fmt.Sprintf("**Branch:** `main`\n**Trigger:** `manual`\n**Time:** %s\n**Session:** %s\n\n## Git\n",
			Code(clock.Format(TimeFormat)), Code(id.String())))
		session, when := goldmarkSnapshotInfo(src)
		got := ReadSnapshotInfo(src)
		wantTime, _ := time.Parse(TimeFormat, when)
		if got.Session != session || !got.Time.Equal(wantTime) {
			t.Fatalf("round %d, %q: read %q %v, goldmark %q %v", round, src, got.Session, got.Time, session, wantTime)
		}
	}
}

// A field is read wherever its label is, even first in the paragraph,
// and with no space before its code span; a run of backticks nothing
// closes is text, and the next strong label ends the search.
func TestAFieldIsTheCodeSpanAfterItsLabel(t *testing.T) {
	for _, tt := range []struct{ para, label, want string }{
		{"**Time:** `2026`", "Time:", "2026"},
		{"**Session:**`abc`", "Session:", "abc"},
		{"**Session:** ``` `a` ", "Session:", "a"},
		{"**Session:** **Time:** `x`", "Session:", ""},
		{"**Session:** none", "Session:", ""},
		{"no label `x`", "Session:", ""},
	} {
		if got := fieldAfter(tt.para, tt.label); got != tt.want {
			t.Errorf("fieldAfter(%q, %q) = %q, want %q", tt.para, tt.label, got, tt.want)
		}
	}
}
