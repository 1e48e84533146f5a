// Package goldmarktest parses markdown with goldmark's default parser, for
// the tests that hold package markdown and its readers to goldmark's
// answers. Only tests import it: the binary does not link goldmark.
package goldmarktest

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Parse is goldmark's syntax tree of src, as goldmark.DefaultParser builds it.
func Parse(src []byte) ast.Node {
	p := parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
	return p.Parse(text.NewReader(src))
}
