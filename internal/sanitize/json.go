package sanitize

import (
	"bytes"
	"encoding/json"
	"io"
)

// JSON is Clean for a JSON document: every string in it, keys included,
// is cleaned where it stands, and every other byte stays, so the layout
// and the order of the keys are the writer's. Cleaning the text whole
// would not do: a redacted key=value could eat the quote that ends its
// string, and an escape written as \u001b would pass as plain text.
// What is not valid JSON is cleaned as text.
func JSON(b []byte) []byte {
	if !json.Valid(b) {
		return []byte(Clean(string(b)))
	}
	var out bytes.Buffer
	out.Grow(len(b))
	for len(b) > 0 {
		i := bytes.IndexByte(b, '"')
		if i < 0 {
			out.Write(b)
			break
		}
		out.Write(b[:i])
		n := stringEnd(b[i:])
		lit := b[i : i+n]
		b = b[i+n:]
		var s string
		if json.Unmarshal(lit, &s) != nil {
			out.Write(lit) // valid JSON has none such; kept as it was
			continue
		}
		if c := Clean(s); c != s {
			lit = quote(c)
		}
		out.Write(lit)
	}
	return out.Bytes()
}

// stringEnd is the length of the string literal b starts with, quotes
// included.
func stringEnd(b []byte) int {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// quote is s as a JSON string, "<" and ">" kept as they are.
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Writer holds what a command prints until Flush, then writes it cleaned
// by the same policy (JSON string by string): a person's terminal gets no
// escape sequence, hidden character or secret from the logs, the
// settings or the repository, whichever line of the program printed it.
// Cleaning the whole at once, not each write, keeps a secret that two
// writes split from passing in halves.
type Writer struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewWriter returns a Writer that writes to w on Flush.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (w *Writer) Write(p []byte) (int, error) { return w.buf.Write(p) }

// Flush writes what was held, cleaned, and empties the Writer.
func (w *Writer) Flush() error {
	if w.buf.Len() == 0 {
		return nil
	}
	b := JSON(w.buf.Bytes())
	w.buf.Reset()
	_, err := w.w.Write(b)
	return err
}
