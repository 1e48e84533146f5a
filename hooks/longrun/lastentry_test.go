package longrun

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"

	"github.com/session-hooks/session-hooks/internal/markdown/goldmarktest"
)

// goldmarkLastEntry is the last entry as goldmark's syntax tree gives it:
// the last top-level heading, else the last block, from the line its text
// starts on (the file's start for a block without text).
func goldmarkLastEntry(src []byte, max int) string {
	doc := goldmarktest.Parse(src)
	var start ast.Node
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if start == nil || start.Kind() != ast.KindHeading || n.Kind() == ast.KindHeading {
			start = n
		}
	}
	if start == nil {
		return ""
	}
	at := 0
	ast.Walk(start, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			at = c.Lines().At(0).Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	from := bytes.LastIndexByte(src[:at], '\n') + 1
	return clip(strings.TrimSpace(string(src[from:])), max)
}

// The last entry of a progress file is the one goldmark's syntax tree
// gives, on progress files made of the lines agents write into them.
func TestTheLastProgressEntryIsGoldmarks(t *testing.T) {
	lines := []string{"# Progress", "## Session 4", "### Feature 12: login", "Done: the parser.", "Next: the lexer.",
		"- fixed the tests", "- committed abc1234", "  more about it", "1. step one", "2. step two", "```", "```sh",
		"go test ./...", "---", "Notes", "===", "> a quote", "", "", "    indented", "* * *", "#no heading", "<div>"}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 20000 {
		var doc []string
		for range 1 + rng.IntN(14) {
			doc = append(doc, lines[rng.IntN(len(lines))])
		}
		src := []byte(strings.Join(doc, "\n") + "\n")
		if got, want := lastEntry(src, 1500), goldmarkLastEntry(src, 1500); got != want {
			t.Fatalf("round %d, %q:\ngot  %q\nwant %q", round, src, got, want)
		}
	}
}
