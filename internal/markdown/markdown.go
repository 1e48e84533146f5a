// Package markdown finds the top-level blocks of a CommonMark document:
// where each begins and ends, and which are headings, fenced code and
// lists. It is the part of a markdown parser the hooks use (the last entry
// of a progress file, the lists and code blocks a log may shorten, the
// first paragraph of a snapshot) without a parser's start: goldmark's
// package initialisation (its entity table, its regular expressions) cost
// every hook run 1.1 ms whether it read markdown or not. Its answers are
// held to goldmark's by a differential test.
package markdown

import (
	"bytes"
	"slices"
)

// Kind is what a top-level block is.
type Kind uint8

const (
	Paragraph Kind = iota
	Heading        // ATX (# Title) or setext (Title, then === or ---)
	FencedCode
	IndentedCode
	List
	Quote
	Break // a thematic break: ***, ---, ___
	HTML
)

// Block is one top-level block: its lines run from Start (the first
// line's first byte) to End (past the last line's newline, or the end of
// the text). Its lines holding text run from Text to TextEnd; Text is -1
// for a block with none (a break, an empty item, an empty fence), and
// TextEnd then means nothing. For
// fenced code, Content is its content lines, the fences left out.
type Block struct {
	Kind          Kind
	Start, End    int
	Text, TextEnd int
	Content       [2]int
}

// Blocks returns the top-level blocks of src, in order.
func Blocks(src []byte) []Block {
	s := scanner{src: src}
	for at := 0; at < len(src); {
		end := bytes.IndexByte(src[at:], '\n') + 1
		if end == 0 {
			end = len(src) - at
		}
		s.line(at, at+end)
		at += end
	}
	s.close(len(src))
	return s.out
}

type scanner struct {
	src  []byte
	out  []Block
	open *Block
	// lastEnd is the end of the open block's last line that is not blank.
	lastEnd int
	// fence is the open fenced code's fence (its character and length).
	fenceChar byte
	fenceLen  int
	// list is the open list's marker (a bullet's character, or '.' or ')'
	// for an ordered list) and its item's content indentation; blank says
	// a blank line came since its last line.
	listMarker byte
	// items are the content indentations of the open items, the
	// outermost first: a line indented to one is that item's content.
	items []int
	blank bool
	lazy  bool // the list's last line was text a lazy line may continue
	// lazyLevel is the item (an index of items) whose own paragraph that
	// text is; -1 when it is deeper (a quote's, or a nested item's whose
	// marker the line did not reach): an underline makes only an item's
	// own paragraph a heading.
	lazyLevel int
	// inner is a fenced code block open inside an item: its fence, and
	// the item (an index of items) it belongs to.
	innerChar  byte
	innerLen   int
	innerLevel int
	itemEmpty  bool // the list's last item has no content yet
	// htmlEnd ends the open HTML block ("" : a blank line does).
	htmlEnd string
}

func (s *scanner) line(start, end int) {
	text := s.src[start:end]
	if s.open != nil {
		if s.continues(start, end, text) {
			return
		}
		s.close(s.lastEnd)
	}
	s.begin(start, end, text)
}

// continues says whether the line belongs to the open block, and takes it.
func (s *scanner) continues(start, end int, text []byte) bool {
	indent, rest := indentOf(text)
	blank := len(bytes.TrimSpace(rest)) == 0
	b := s.open
	switch b.Kind {
	case FencedCode:
		if indent <= 3 && closesFence(rest, s.fenceChar, s.fenceLen) {
			b.Content[1] = start
			s.lastEnd = end
			s.close(end)
			return true
		}
		s.lastEnd, b.Content[1] = end, end
		s.text(start, end)
		return true
	case IndentedCode:
		if blank || indent >= 4 {
			if !blank {
				s.lastEnd = end
				s.text(start, end)
			}
			return true
		}
		return false
	case Paragraph:
		if blank {
			return false
		}
		if indent <= 3 && setextUnderline(rest) {
			b.Kind = Heading
			s.lastEnd = end
			s.close(end)
			return true
		}
		if indent <= 3 && interruptsParagraph(rest) {
			return false
		}
		s.lastEnd = end
		s.text(start, end)
		return true
	case Quote:
		if blank {
			return false
		}
		if indent <= 3 && rest[0] == '>' {
			s.lastEnd = end
			in := quoteContent(rest)
			ci, cr := indentOf(in)
			s.lazy = s.lazy && !startsBlock(ci, cr) && len(bytes.TrimSpace(in)) > 0 || lazyAfter(ci, cr)
			if quoted(rest) {
				s.text(start, end)
			}
			return true
		}
		if s.lazy && !startsBlock(indent, rest) { // a lazy line
			s.lastEnd = end
			s.text(start, end)
			return true
		}
		return false
	case HTML:
		if s.htmlEnd == "" && blank {
			return false
		}
		s.lastEnd = end
		s.text(start, end)
		if s.htmlEnd != "" && s.htmlEnds(text) {
			s.close(end)
		}
		return true
	case List:
		if s.innerLen > 0 {
			level := s.items[s.innerLevel] // open only while its item is
			if blank || indent >= level {
				switch {
				case !blank && indent-level <= 3 && closesFence(rest, s.innerChar, s.innerLen):
					s.innerLen = 0
				case !blank || s.src[end-1] == '\n':
					s.text(start, end) // a line of code, blank or not (goldmark drops a blank last line without a newline)
				}
				s.lastEnd, s.blank = end, false
				return true
			}
			s.innerLen = 0 // the item ends, and its code with it
		}
		if blank {
			if !s.blank && s.itemEmpty {
				// An item begins with at most one blank line: an empty one
				// takes no content after it.
				s.items[len(s.items)-1] = 1 << 30
			}
			s.blank, s.lazy = true, false
			return true
		}
		if marker, _, isItem := listItem(rest); isItem && s.itemEmpty && indent <= 3 && marker != s.listMarker {
			return false // after an empty item, another kind of item ends the list
		}
		if indent >= s.items[0] { // an item's own content
			k := len(s.items) - 1
			for indent < s.items[k] {
				k--
			}
			rel := indent - s.items[k]
			underline := s.lazy && s.lazyLevel == k && rel <= 3 && setextUnderline(rest) // the paragraph becomes a heading
			lazy := s.lazy && !underline && !startsBlock(rel, rest)
			hasText := lazy || lineText(rel, rest, s.lazy)
			if !lazy {
				s.items = s.items[:k+1] // the deeper items end
				if _, width, ok := listItem(rest); ok && rel < 4 && !thematicBreak(rest) {
					s.items = append(s.items, contentColumn(indent, rest))
					s.openInner(rest[min(width, len(rest)):], len(s.items)-1)
				} else if rel < 4 {
					s.openInner(rest, k)
				}
			}
			s.blank, s.lastEnd, s.lazy, s.itemEmpty = false, end, !underline && (lazy || lazyAfter(rel, rest)), false
			if !lazy {
				s.lazyLevel = len(s.items) - 1 // the item this line's text is in
				if _, _, ok := listItem(rest); !ok && rel <= 3 && len(rest) > 0 && rest[0] == '>' {
					s.lazyLevel = -1
				}
			}
			if hasText {
				s.text(start, end)
			}
			return true
		}
		if indent <= 3 && !thematicBreak(rest) {
			if marker, width, ok := listItem(rest); ok {
				if marker != s.listMarker {
					return false // another kind of list starts
				}
				s.items, s.lazyLevel = []int{contentColumn(indent, rest)}, 0
				s.blank, s.lastEnd, s.lazy, s.itemEmpty = false, end, itemLazy(rest), !itemText(rest)
				s.openInner(rest[min(width, len(rest)):], 0)
				if lineText(0, rest, false) {
					s.text(start, end)
				}
				return true
			}
		}
		if s.lazy && !s.blank && !startsBlock(indent, rest) { // a lazy line
			s.blank, s.lastEnd = false, end
			s.text(start, end)
			return true
		}
		return false
	}
	return false
}

// begin starts the block the line opens.
func (s *scanner) begin(start, end int, text []byte) {
	indent, rest := indentOf(text)
	if len(bytes.TrimSpace(rest)) == 0 {
		return
	}
	s.lastEnd = end
	b := &Block{Start: start, Text: start, TextEnd: end}
	s.open = b
	fence, html := openingFence(rest), htmlKind(rest, false)
	switch {
	case indent >= 4:
		b.Kind = IndentedCode
	case atxHeading(rest):
		b.Kind = Heading
		if !headingText(rest) {
			b.Text = -1
		}
		s.close(end)
	case fence > 0:
		b.Kind, b.Text = FencedCode, -1
		s.fenceChar, s.fenceLen = rest[0], fence
		b.Content = [2]int{end, end}
	case thematicBreak(rest):
		b.Kind, b.Text = Break, -1
		s.close(end)
	case rest[0] == '>':
		b.Kind = Quote
		ci, cr := indentOf(quoteContent(rest))
		s.lazy = lazyAfter(ci, cr)
		if !quoted(rest) {
			b.Text = -1
		}
	case html != "":
		b.Kind = HTML
		s.htmlEnd = htmlEnds[html]
		if s.htmlEnd != "" && s.htmlEnds(rest[1:]) {
			s.close(end)
		}
	default:
		if marker, width, ok := listItem(rest); ok {
			b.Kind = List
			s.lazy = itemLazy(rest)
			s.listMarker, s.items, s.blank, s.itemEmpty = marker, []int{contentColumn(indent, rest)}, false, !itemText(rest)
			s.lazyLevel = 0
			s.innerLen = 0
			s.openInner(rest[min(width, len(rest)):], 0)
			if !lineText(0, rest, false) {
				b.Text = -1
			}
			return
		}
		b.Kind = Paragraph
	}
}

// headingText says whether an ATX heading has text after its #s (and
// before a closing run of #s).
func headingText(rest []byte) bool {
	t := bytes.TrimSpace(bytes.TrimLeft(rest, "#"))
	return len(bytes.TrimSpace(bytes.TrimRight(t, "#"))) > 0 || len(t) > 0 && !bytes.HasSuffix(t, []byte("#"))
}

// quoteContent is a block quote line's content: after its > and the one
// space that may follow it.
func quoteContent(rest []byte) []byte {
	rest = rest[1:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return rest
}

// quoted says whether a block quote's line holds text after its >.
func quoted(rest []byte) bool {
	if rest[0] == '>' {
		rest = rest[1:]
	}
	return len(bytes.TrimSpace(rest)) > 0
}

// openInner opens a fenced code block inside the item at level when the
// item's content (after its marker, or the line) opens one.
func (s *scanner) openInner(content []byte, level int) {
	indent, rest := indentOf(content)
	if fence := openingFence(rest); indent <= 3 && fence > 0 {
		s.innerChar, s.innerLen, s.innerLevel = rest[0], fence, level
	}
}

// lineText says whether a line of an item's content (indented by rel past
// the item's) holds text, as goldmark's tree has it: a fence, a rule, an
// empty heading, the underline of a heading or an empty item do not.
func lineText(rel int, rest []byte, paragraphOpen bool) bool {
	switch {
	case rel >= 4 || len(rest) == 0:
		return rel >= 4
	case paragraphOpen && setextUnderline(rest):
		return false
	case openingFence(rest) > 0 || thematicBreak(rest):
		return false
	case atxHeading(rest):
		return headingText(rest)
	case rest[0] == '>':
		return quoted(rest)
	}
	if _, width, ok := listItem(rest); ok {
		indent, content := indentOf(rest[min(width, len(rest)):])
		return len(bytes.TrimSpace(content)) > 0 && lineText(indent, content, false)
	}
	return true
}

// lazyAfter says whether a line of a list item's content (indented by
// indent past the item's) leaves a paragraph open, which a lazy line may
// continue.
func lazyAfter(indent int, rest []byte) bool {
	switch {
	case indent >= 4 || len(bytes.TrimSpace(rest)) == 0:
		return false
	case rest[0] == '>':
		return quoted(rest)
	case atxHeading(rest) || openingFence(rest) > 0 || thematicBreak(rest) || htmlKind(rest, false) != "":
		return false
	}
	if _, _, ok := listItem(rest); ok {
		return itemLazy(rest)
	}
	return true
}

// itemLazy is lazyAfter for a list item's first line: its content.
func itemLazy(rest []byte) bool {
	if !itemText(rest) {
		return false
	}
	_, width, _ := listItem(rest)
	indent, content := indentOf(rest[width:])
	return lazyAfter(indent, content)
}

// itemText says whether a list item's first line holds text.
func itemText(rest []byte) bool {
	_, width, _ := listItem(rest)
	return len(bytes.TrimSpace(rest[min(width, len(rest)):])) > 0
}

// text records that the line from start to end holds text of the open
// block.
func (s *scanner) text(start, end int) {
	if s.open.Text < 0 {
		s.open.Text = start
	}
	s.open.TextEnd = end
}

func (s *scanner) close(end int) {
	if s.open == nil {
		return
	}
	s.open.End = max(end, s.open.Start)
	s.out = append(s.out, *s.open)
	s.open = nil
}

// indentOf is the line's indentation in columns (a tab to the next
// multiple of 4) and the rest of the line.
func indentOf(line []byte) (int, []byte) {
	col := 0
	for i, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return col, line[i:]
		}
	}
	return col, nil
}

func atxHeading(rest []byte) bool {
	n := 0
	for n < len(rest) && rest[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(rest) || rest[n] == ' ' || rest[n] == '\t' || rest[n] == '\n' || rest[n] == '\r')
}

// openingFence is the length of the fence the line opens, 0 if none.
func openingFence(rest []byte) int {
	if len(rest) == 0 || rest[0] != '`' && rest[0] != '~' {
		return 0
	}
	n := 0
	for n < len(rest) && rest[n] == rest[0] {
		n++
	}
	if n < 3 || rest[0] == '`' && bytes.IndexByte(rest[n:], '`') >= 0 {
		return 0
	}
	return n
}

func closesFence(rest []byte, c byte, length int) bool {
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	return n >= length && len(bytes.TrimSpace(rest[n:])) == 0
}

func thematicBreak(rest []byte) bool {
	if len(rest) == 0 || rest[0] != '*' && rest[0] != '-' && rest[0] != '_' {
		return false
	}
	n := 0
	for _, c := range bytes.TrimSpace(rest) {
		switch c {
		case rest[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func setextUnderline(rest []byte) bool {
	t := bytes.TrimSpace(rest)
	if len(t) == 0 || t[0] != '=' && t[0] != '-' {
		return false
	}
	for _, c := range t {
		if c != t[0] {
			return false
		}
	}
	return true
}

// listItem reads a list item's marker: its kind (the bullet, or '.' or
// ')' for an ordered item), and the width of the marker and the spaces
// after it, which the item's content is indented by.
func listItem(rest []byte) (marker byte, width int, ok bool) {
	i := 0
	switch {
	case len(rest) > 0 && (rest[0] == '-' || rest[0] == '+' || rest[0] == '*'):
		marker, i = rest[0], 1
	default:
		for i < len(rest) && i < 9 && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(rest) || rest[i] != '.' && rest[i] != ')' {
			return 0, 0, false
		}
		marker, i = rest[i], i+1
	}
	if i < len(rest) && rest[i] != ' ' && rest[i] != '\t' && rest[i] != '\n' && rest[i] != '\r' {
		return 0, 0, false
	}
	spaces := 0
	for i+spaces < len(rest) && rest[i+spaces] == ' ' && spaces < 5 {
		spaces++
	}
	if spaces == 0 || spaces == 5 || len(bytes.TrimSpace(rest[i:])) == 0 {
		spaces = 1
	}
	return marker, i + spaces, true
}

// contentColumn is the column a list item's content starts at, for an
// item whose marker starts at column col: past the marker and the spaces
// after it (a tab reaching the next multiple of 4), or past one column
// when there are none, five or more, or no content.
func contentColumn(col int, rest []byte) int {
	m := 1 // the marker's length: a bullet, or digits and . or )
	if rest[0] >= '0' && rest[0] <= '9' {
		m = bytes.IndexAny(rest, ".)") + 1
	}
	c, end := col+m, col+m
	j := m
	for ; j < len(rest) && (rest[j] == ' ' || rest[j] == '\t'); j++ {
		if rest[j] == '\t' {
			end += 4 - end%4
		} else {
			end++
		}
	}
	if spaces := end - c; spaces >= 1 && spaces <= 4 && len(bytes.TrimSpace(rest[j:])) > 0 {
		return end
	}
	return c + 1
}

// interruptsParagraph says whether the line starts a block that ends a
// paragraph without a blank line between them.
func interruptsParagraph(rest []byte) bool {
	if len(rest) == 0 {
		return false
	}
	if atxHeading(rest) || openingFence(rest) > 0 || thematicBreak(rest) || rest[0] == '>' || htmlKind(rest, true) != "" {
		return true
	}
	marker, _, ok := listItem(rest)
	if !ok || !itemText(rest) {
		return false // an empty item does not interrupt a paragraph
	}
	return marker == '-' || marker == '+' || marker == '*' || bytes.HasPrefix(rest, []byte("1"+string(marker)))
}

// startsBlock says whether a line that is not a lazy continuation starts
// a block of its own.
func startsBlock(indent int, rest []byte) bool {
	if indent > 3 {
		return false
	}
	_, _, item := listItem(rest)
	return item || interruptsParagraph(rest)
}

// htmlKind is the kind of HTML block the line starts (CommonMark's seven,
// named here by how they end), "" for none; inParagraph leaves out the
// kind that cannot interrupt a paragraph.
func htmlKind(rest []byte, inParagraph bool) string {
	if len(rest) < 2 || rest[0] != '<' {
		return ""
	}
	lower := bytes.ToLower(rest)
	for _, t := range rawTags {
		if bytes.HasPrefix(lower[1:], []byte(t)) {
			after := rest[1+len(t):]
			if len(bytes.TrimSpace(after)) == 0 || after[0] == ' ' || after[0] == '\t' || after[0] == '>' || bytes.HasPrefix(after, []byte("/>")) {
				return "raw"
			}
		}
	}
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		return "comment"
	case bytes.HasPrefix(rest, []byte("<?")):
		return "instruction"
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		return "cdata"
	case rest[1] == '!' && len(rest) > 2 && rest[2] >= 'A' && rest[2] <= 'Z':
		return "declaration"
	}
	name := rest[1:]
	if name[0] == '/' {
		name = bytes.TrimLeft(name[1:], " ")
	}
	n := tagName(name)
	if n == 0 {
		return ""
	}
	after := name[n:]
	if _, ok := slices.BinarySearch(blockTags, string(bytes.ToLower(name[:n]))); ok &&
		(len(bytes.TrimRight(after, "\r\n")) == 0 || after[0] == ' ' || after[0] == '>' || bytes.HasPrefix(after, []byte("/>"))) {
		return "block"
	}
	if !inParagraph && completeTag(rest) {
		return "tag"
	}
	return ""
}

// rawTags start the HTML blocks that end at their closing tag.
var rawTags = []string{"script", "pre", "style", "textarea"}

// htmlEnds is what ends each kind of HTML block ("": a blank line); "raw"
// ends at a closing tag of any of rawTags.
var htmlEnds = map[string]string{"raw": "raw", "comment": "-->", "instruction": "?>", "cdata": "]]>", "declaration": ">"}

// ends says whether the line ends the open HTML block.
func (s *scanner) htmlEnds(line []byte) bool {
	if s.htmlEnd != "raw" {
		return bytes.Contains(line, []byte(s.htmlEnd))
	}
	lower := bytes.ToLower(line)
	for _, t := range rawTags {
		if bytes.Contains(lower, []byte("</"+t+">")) {
			return true
		}
	}
	return false
}

// tagName is the length of the tag name name starts with: a letter, then
// letters, digits and hyphens.
func tagName(name []byte) int {
	n := 0
	for n < len(name) && (isLetter(name[n]) || n > 0 && (name[n] >= '0' && name[n] <= '9' || name[n] == '-')) {
		n++
	}
	return n
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// completeTag says whether the line is one open or closing tag (any name,
// attributes as CommonMark writes them) and nothing after it but spaces:
// CommonMark's seventh kind.
func completeTag(rest []byte) bool {
	t := bytes.TrimRight(rest, " \t\r\n")
	if len(t) < 3 || t[0] != '<' || t[len(t)-1] != '>' {
		return false
	}
	t = t[1 : len(t)-1]
	closing := t[0] == '/'
	if closing {
		t = bytes.TrimLeft(t[1:], " ")
	}
	n := tagName(t)
	if n == 0 {
		return false
	}
	switch string(bytes.ToLower(t[:n])) {
	case "script", "style", "pre": // goldmark leaves these to paragraphs
		return false
	}
	t = t[n:]
	if closing {
		return len(bytes.Trim(t, " \t")) == 0
	}
	t = bytes.TrimSuffix(t, []byte("/"))
	for {
		trimmed := bytes.TrimLeft(t, " \t")
		if len(trimmed) == 0 {
			return true
		}
		if len(trimmed) == len(t) { // an attribute needs space before it
			return false
		}
		t = trimmed
		a := 0
		for a < len(t) && (isLetter(t[a]) || t[a] == '_' || t[a] == ':' || a > 0 && (t[a] >= '0' && t[a] <= '9' || t[a] == '.' || t[a] == '-')) {
			a++
		}
		if a == 0 {
			return false
		}
		t = t[a:]
		v := bytes.TrimLeft(t, " \t")
		if len(v) == 0 || v[0] != '=' {
			continue
		}
		v = bytes.TrimLeft(v[1:], " \t")
		switch {
		case len(v) == 0:
			return false
		case v[0] == '"' || v[0] == '\'':
			end := bytes.IndexByte(v[1:], v[0])
			if end < 0 {
				return false
			}
			t = v[end+2:]
		default:
			e := 0
			for e < len(v) && bytes.IndexByte([]byte("\"'=<>` \t"), v[e]) < 0 {
				e++
			}
			if e == 0 {
				return false
			}
			t = v[e:]
		}
	}
}

// blockTags are the tags that start an HTML block (CommonMark's kind
// 6), sorted: looked up by binary search, with nothing built at start.
var blockTags = []string{"address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center",
	"col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
	"form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend",
	"li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search",
	"section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul"}
