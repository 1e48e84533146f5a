package markdown

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"

	"github.com/session-hooks/session-hooks/internal/markdown/goldmarktest"
)

// goldmarkBlocks is goldmark's answer: each top-level block's kind, and
// the line its text starts on (blocks without lines: -1).
func goldmarkBlocks(src []byte) []string {
	doc := goldmarktest.Parse(src)
	var out []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		d := fmt.Sprintf("%s@%d", kindName(n.Kind()), lineOf(src, firstLine(n)))
		if k := n.Kind(); (k == ast.KindList || k == ast.KindFencedCodeBlock) && lastStop(n) > 0 {
			d += fmt.Sprintf("-%d", lineOf(src, lastStop(n)-1))
		}
		out = append(out, d)
	}
	return out
}

// lastStop is the end of the last text of n (its descendants' included).
func lastStop(n ast.Node) int {
	stop := -1
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Type() == ast.TypeBlock {
			for i := 0; i < c.Lines().Len(); i++ {
				stop = max(stop, c.Lines().At(i).Stop)
			}
		}
		return ast.WalkContinue, nil
	})
	return stop
}

func kindName(k ast.NodeKind) string {
	switch k {
	case ast.KindHeading:
		return "heading"
	case ast.KindFencedCodeBlock:
		return "fence"
	case ast.KindList:
		return "list"
	}
	return "other"
}

func firstLine(n ast.Node) int {
	at := -1
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			at = c.Lines().At(0).Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return at
}

func lineOf(src []byte, at int) int {
	if at < 0 {
		return -1
	}
	return strings.Count(string(src[:at]), "\n")
}

func ours(src []byte) []string {
	var out []string
	for _, b := range Blocks(src) {
		k := map[Kind]string{Heading: "heading", FencedCode: "fence", List: "list"}[b.Kind]
		if k == "" {
			k = "other"
		}
		d := fmt.Sprintf("%s@%d", k, lineOf(src, b.Text))
		if (b.Kind == List || b.Kind == FencedCode) && b.Text >= 0 {
			d += fmt.Sprintf("-%d", lineOf(src, b.TextEnd-1))
		}
		if b.Kind == FencedCode && b.Content[1] > b.Content[0] && b.Content[1] != b.TextEnd {
			d += "(content ends elsewhere)"
		}
		out = append(out, d)
	}
	return out
}

// fragments are lines a progress file or a log holds, and the ones that
// make CommonMark's block rules meet.
var fragments = []string{
	"# Title", "## Session 3", "###### deep", "#not a heading", "    # indented, code", "Title", "===", "---", "***", "* * *",
	"text of a paragraph", "more text", "- item", "- item two", "  continued in the item", "* star item", "+ plus item",
	"1. first", "2. second", "3) paren", "- ", "```", "```go", "~~~", "````", "code line", "> quoted", "> more quoted",
	"lazy line", "", "", "", "<div>", "</div>", "<!-- comment -->", "\tcode with a tab", "   - indented item", "      deep",
	"12. twelve", "2. starts at two", "<span>", "<script>", "</script>", "<?php ?>", "-->",
	// the edges of each rule
	"   ```", "    ```", "``` `x`", "~~~~~", "  ~~~", "#\tTab", "####### seven", "# closing ##", "#", "##   ",
	"- - -", "_ _ _", "**", "--", "  ===", "= =", "---  ", "10) ten", "1234567890. too long", "-\ttab item",
	"-  two spaces", "-     five spaces", "+", "*", "1.", ">", ">no space", "   > three", "<pre>", "</pre>",
	"<style>", "<textarea x>", "<!DOCTYPE html>", "<![CDATA[ x ]]>", "<?xml ?>", "<custom-tag>", "</span>",
	"<a href=\"x\">", "<DIV>", "<div class=x>", "<table>", "<scripts>", "</div", "<p/>", "<!x", "]]>", "?>",
	"\t- tab item", "  \tmixed", "text *emph*", "x  ", " \t ",
	// items' content at the edges of its indentation, and characters at
	// the edges of each class
	"     ===", "      - deep item", "      ```", "  > quoted in item", "  - nested item", "  ===", "  ---",
	">     code in a quote", "``", "~~", "9. nine", "0. zero", "999999999) nine digits", "<a>", "<z9-x>", "<A>",
	"<Z>", "</a >", "<a b_:.9-x='1' c=\"2\" d=e>", "<a _x>", "<a :x>", "<a 9x>", "<a x=>", "<a x='y>", "<a/>",
	"<aside>", "<ul>", "<tr>", "<a\tb>", "<!A>", "<!Z>", "<!@>",
}

// The blocks are goldmark's, on documents made of the lines a progress
// file and a log hold and of lines at the edge of each rule, in random
// orders: their kinds, where their text starts, and where the text of a
// list or a fence ends (what a log shortens). Blocks the hooks do not use
// are compared as "other".
func TestTheBlocksAreGoldmarks(t *testing.T) {
	seed, _ := strconv.ParseUint(os.Getenv("MARKDOWN_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(1+seed, 2))
	for round := range roundsOf(20000) {
		var lines []string
		for range 1 + rng.IntN(16) {
			lines = append(lines, fragments[rng.IntN(len(fragments))])
		}
		src := []byte(strings.Join(lines, "\n"))
		if rng.IntN(2) == 0 {
			src = append(src, '\n')
		}
		want, got := goldmarkBlocks(src), ours(src)
		if strings.Join(want, " ") != strings.Join(got, " ") {
			t.Fatalf("round %d, %q:\ngoldmark %v\nours     %v", round, src, want, got)
		}
	}
}

// roundsOf is n, or MARKDOWN_ROUNDS for a longer search.
func roundsOf(n int) int {
	if v, err := strconv.Atoi(os.Getenv("MARKDOWN_ROUNDS")); err == nil {
		return v
	}
	return n
}

// Blocks never fails on any text (a progress file is the repository's),
// and its blocks lie in order inside the text.
func FuzzBlocks(f *testing.F) {
	for _, s := range fragments {
		f.Add([]byte(s + "\n" + s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		at := 0
		for _, b := range Blocks(src) {
			if b.Start < at || b.End < b.Start || b.End > len(src) || b.Text >= 0 && (b.Text < b.Start || b.TextEnd > len(src)) {
				t.Fatalf("block %+v out of place in %d bytes (the previous ended at %d)", b, len(src), at)
			}
			at = b.Start
		}
	})
}

// The block tags are sorted: they are looked up by binary search.
func TestTheBlockTagsAreSorted(t *testing.T) {
	if !slices.IsSorted(blockTags) {
		t.Error("blockTags is not sorted")
	}
}
