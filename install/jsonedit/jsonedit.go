// Package jsonedit edits a JSON or JSONC file (a client's settings) as its
// user wrote it: every edit splices the original bytes, so comments,
// trailing commas, indentation, key order and line endings outside what
// is added or removed stay byte for byte, and removing what Add put in
// gives back the file as it was.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/tailscale/hujson"
)

// hujson parses JSON with comments and trailing commas into a tree that
// knows where each value starts and ends; every edit splices the original
// bytes there. Adding appends after the last element and removing takes
// out exactly what adding put in.

// Doc is a file being edited: its bytes and their parse tree.
type Doc struct {
	b    []byte
	root hujson.Value
}

// Parse reads b (empty is an empty object) for editing.
func Parse(b []byte) (*Doc, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}\n")
	}
	d := &Doc{b: bytes.Clone(b)}
	return d, d.reparse()
}

func (d *Doc) reparse() error {
	v, err := hujson.Parse(d.b)
	d.root = v
	return err
}

// splice replaces d.b[start:end] with text and parses the result again.
func (d *Doc) splice(start, end int, text string) error {
	b := make([]byte, 0, len(d.b)-(end-start)+len(text))
	b = append(append(append(b, d.b[:start]...), text...), d.b[end:]...)
	d.b = b
	return d.reparse()
}

// Member finds the value of obj's member name; nil when obj is nil or has
// none (a name that is not valid UTF-8 reads differently to gjson and
// hujson: the edit is refused, never a nil dereference).
func Member(obj *hujson.Value, name string) *hujson.Value {
	if obj == nil {
		return nil
	}
	o, ok := obj.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	for i := range o.Members {
		if lit, ok := o.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return &o.Members[i].Value
		}
	}
	return nil
}

// Element finds arr's i-th element.
func Element(arr *hujson.Value, i int) *hujson.Value {
	if arr == nil {
		return nil
	}
	a, ok := arr.Value.(*hujson.Array)
	if !ok || i < 0 || i >= len(a.Elements) {
		return nil
	}
	return &a.Elements[i]
}

// spans are where each member (name to value) or element starts and ends.
func spans(c *hujson.Value) (starts, ends []int) {
	switch v := c.Value.(type) {
	case *hujson.Object:
		for _, m := range v.Members {
			starts, ends = append(starts, m.Name.StartOffset), append(ends, m.Value.EndOffset)
		}
	case *hujson.Array:
		for _, e := range v.Elements {
			starts, ends = append(starts, e.StartOffset), append(ends, e.EndOffset)
		}
	}
	return starts, ends
}

// Remove takes out the i-th member or element of c with the separator
// before it (after it, for the first), or empties c if it is the only one.
func (d *Doc) Remove(c *hujson.Value, i int) error {
	starts, ends := spans(c)
	switch {
	case i < 0 || i >= len(starts):
		return fmt.Errorf("no entry %d to remove", i)
	case i > 0:
		return d.splice(ends[i-1], ends[i], "")
	case len(starts) > 1:
		return d.splice(starts[0], starts[1], "")
	default:
		// The only one: undo what add wrote into an empty container
		// (the element and its padding, or its lines in the top object),
		// leaving what was inside before.
		inner := d.b[c.StartOffset+1 : c.EndOffset-1]
		elem := string(d.b[starts[0]:ends[0]])
		prefix, suffix := d.emptyLayout(c)
		for _, whole := range []string{" " + elem + " ", prefix + elem + suffix} {
			if bytes.HasPrefix(inner, []byte(whole)) {
				return d.splice(c.StartOffset+1, c.StartOffset+1+len(whole), "")
			}
		}
		end := ends[0]
		if rest := d.b[end:c.EndOffset]; bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte(",")) {
			end += bytes.IndexByte(rest, ',') + 1 // its trailing comma: "[x,]" must not become "[,]"
		}
		return d.splice(starts[0], end, "")
	}
}

// MadeByAdd says whether obj's member name holds one element laid out
// exactly as add writes a new member, so that removing that element should
// take the member too: `"name": ` and the value as add renders it, on one
// line or indented. An empty container the user wrote, once add filled
// it, holds its element padded with spaces (" elem "), which add never
// renders: that is how the two are told apart.
func (d *Doc) MadeByAdd(obj *hujson.Value, name string) bool {
	o, _ := obj.Value.(*hujson.Object)
	i := MemberIndex(obj, name)
	if o == nil || i < 0 {
		return false
	}
	m := o.Members[i]
	if string(d.b[m.Name.EndOffset:m.Value.StartOffset]) != ": " {
		return false
	}
	starts, ends := spans(&m.Value)
	if len(starts) != 1 {
		return false
	}
	inner := string(d.b[m.Value.StartOffset+1 : m.Value.EndOffset-1])
	elem := string(d.b[starts[0]:ends[0]])
	if inner == elem { // inline
		return true
	}
	prefix, suffix := d.emptyLayout(&m.Value)
	return inner == prefix+elem+suffix
}

// emptyLayout is what add writes around the first element of an empty
// container in a multi-line file: the element's own line before it, the
// closing bracket's after it.
func (d *Doc) emptyLayout(c *hujson.Value) (prefix, suffix string) {
	outer := d.lineLeading(c.StartOffset)
	return d.newline() + outer + d.unit(), d.newline() + outer
}

// lineLeading is the white space that starts off's line.
func (d *Doc) lineLeading(off int) string {
	start := bytes.LastIndexByte(d.b[:off], '\n') + 1
	end := start
	for end < off && (d.b[end] == ' ' || d.b[end] == '\t') {
		end++
	}
	return string(d.b[start:end])
}

// Add appends a member (name != "") or an element to c, laid out as its
// siblings are: on a line of its own at their indentation, or inline.
func (d *Doc) Add(c *hujson.Value, name string, value any) error {
	starts, ends := spans(c)
	if n := len(starts); n > 0 {
		indent, own := d.lineIndent(starts[n-1])
		if !own {
			return d.splice(ends[n-1], ends[n-1], ", "+d.render(name, value, "", true))
		}
		return d.splice(ends[n-1], ends[n-1], ","+d.newline()+indent+d.render(name, value, indent, false))
	}
	if c != &d.root || !bytes.Contains(d.b, []byte("\n")) {
		// An empty container the user wrote: the element padded on one
		// line, what was inside kept after it, so that remove gives back
		// exactly that, and madeByAdd never takes it for one add made.
		return d.splice(c.StartOffset+1, c.StartOffset+1, " "+d.render(name, value, "", true)+" ")
	}
	// The top object: the element on a line of its own, the closing
	// brace on the next, what was inside kept after them.
	prefix, suffix := d.emptyLayout(c)
	indent := strings.TrimLeft(prefix, "\r\n")
	return d.splice(c.StartOffset+1, c.StartOffset+1, prefix+d.render(name, value, indent, false)+suffix)
}

// render writes a member or an element as JSON: on one line beside
// inline siblings, else its inner lines indented from indent.
func (d *Doc) render(name string, value any, indent string, inline bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // a command with && stays readable
	if !inline {
		enc.SetIndent(indent, d.unit())
	}
	enc.Encode(value)
	text := strings.TrimSuffix(buf.String(), "\n")
	if inline {
		text = spaced(text)
	}
	if nl := d.newline(); nl != "\n" {
		text = strings.ReplaceAll(text, "\n", nl)
	}
	if name != "" {
		key, _ := json.Marshal(name)
		text = string(key) + ": " + text
	}
	return text
}

// spaced writes compact JSON as people write it on one line, a space
// after each colon and comma outside strings: {"a": 1, "b": [2, 3]}. Every
// member add writes then has ": " after its name, which is how remove
// tells a member add made from one the user wrote.
func spaced(js string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(js); i++ {
		c := js[i]
		b.WriteByte(c)
		switch {
		case inString && c == '\\' && i+1 < len(js):
			i++
			b.WriteByte(js[i])
		case c == '"':
			inString = !inString
		case !inString && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// lineIndent is the white space between the start of off's line and off,
// and whether off is the first thing on its line.
func (d *Doc) lineIndent(off int) (string, bool) {
	start := bytes.LastIndexByte(d.b[:off], '\n') + 1
	if prefix := d.b[start:off]; isBlank(prefix) {
		return string(prefix), true
	}
	return "", false
}

// unit is the file's indentation step: how much deeper the first member
// of the top object sits than the line the object opens on, when it has
// a line of its own; else two spaces.
func (d *Doc) unit() string {
	if starts, _ := spans(&d.root); len(starts) > 0 {
		indent, own := d.lineIndent(starts[0])
		lead := d.lineLeading(d.root.StartOffset)
		if own && len(indent) > len(lead) && strings.HasPrefix(indent, lead) {
			return indent[len(lead):]
		}
	}
	return "  "
}

func (d *Doc) newline() string {
	if bytes.Contains(d.b, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

func isBlank(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// line is the line number of an offset, for messages.
func (d *Doc) line(off int) int { return bytes.Count(d.b[:off], []byte("\n")) + 1 }

// Duplicates refuses an object holding a name twice: a client reads the
// last one, and an edit of either would be a guess.
func (d *Doc) Duplicates(obj *hujson.Value, what, client string) error {
	o, ok := obj.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	seen := map[string]int{}
	for _, m := range o.Members {
		lit, _ := m.Name.Value.(hujson.Literal)
		name := lit.String()
		if first, dup := seen[name]; dup {
			return &DuplicateKeyError{What: what, Name: name, First: first, Second: d.line(m.Name.StartOffset), Client: client}
		}
		seen[name] = d.line(m.Name.StartOffset)
	}
	return nil
}

// Bytes is the document as edited.
func (d *Doc) Bytes() []byte { return d.b }

// Root is the top value, for Member and Element.
func (d *Doc) Root() *hujson.Value { return &d.root }

// Count is how many members or elements c holds.
func Count(c *hujson.Value) int {
	starts, _ := spans(c)
	return len(starts)
}

// MemberIndex is the index of obj's last member called name (the one a
// client reads), or -1.
func MemberIndex(obj *hujson.Value, name string) int {
	o, _ := obj.Value.(*hujson.Object)
	if o == nil {
		return -1
	}
	for i := len(o.Members) - 1; i >= 0; i-- {
		if lit, ok := o.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	return -1
}

// UnifiedDiff shows the change from old to new as a unified diff that
// patch(1) applies, for install --dry-run: go-internal's anchored diff,
// which marks a last line without a newline as diff -u does.
func UnifiedDiff(name string, old, new []byte) string {
	return string(diff.Diff(name, old, name+" (after install)", new))
}

// DuplicateKeyError is a key written twice in one object, which a client
// reads as the last alone; Client names the client ("" for "the client"),
// which a caller that knows it may set.
type DuplicateKeyError struct {
	What, Name    string
	First, Second int // the lines
	Client        string
}

func (e *DuplicateKeyError) Error() string {
	client := e.Client
	if client == "" {
		client = "the client"
	}
	return fmt.Sprintf("%s %q appears twice (lines %d and %d); %s reads only the last. Merge them first", e.What, e.Name, e.First, e.Second, client)
}
