package claude

import (
	"bytes"
	"io"
)

// tailReader yields a file's lines from the last to the first, reading
// backwards in chunks. It holds at most one chunk plus one line: lines
// longer than maxLine are reported as oversized and dropped while being
// read, and reading stops after budget bytes, whatever the file's size.
type tailReader struct {
	f        io.ReaderAt
	pos      int64  // file bytes before pos are still unread
	data     []byte // unread-by-caller bytes: a partial line, then whole lines
	end      int    // data[:end] still holds lines not yet returned
	budget   int64
	maxLine  int
	skipping bool // inside an oversized line: drop bytes until its start
	// Truncated is set when the budget ran out before the start of the file.
	Truncated bool
	// Oversized counts lines skipped for exceeding maxLine.
	Oversized int
}

const minChunk = 64 << 10

func newTailReader(f io.ReaderAt, size, budget int64, maxLine int) *tailReader {
	return &tailReader{f: f, pos: size, budget: budget, maxLine: maxLine}
}

// Next returns the previous line (without its newline), or io.EOF when the
// start of the file or the end of the budget is reached. An oversized line
// comes back as nil with oversized set.
func (t *tailReader) Next() (line []byte, oversized bool, err error) {
	for {
		if i := bytes.LastIndexByte(t.data[:t.end], '\n'); i >= 0 {
			line, t.end = t.data[i+1:t.end], i
			if t.skipping {
				t.skipping = false
				t.Oversized++
				return nil, true, nil
			}
			if len(line) == 0 {
				continue // the file's final newline, or a blank line
			}
			if len(line) > t.maxLine {
				t.Oversized++ // it fit in one chunk, but the limit is the limit
				return nil, true, nil
			}
			return line, false, nil
		}
		// data[:end] is the end of a line that starts further back.
		if t.skipping || t.end > t.maxLine {
			t.skipping = true
			t.end = 0
		}
		if t.pos == 0 {
			// The file's first line: a byte-order mark an editor left is
			// not part of its JSON.
			line, t.end = bytes.TrimPrefix(t.data[:t.end], []byte("\xef\xbb\xbf")), 0
			if t.skipping {
				t.skipping = false
				t.Oversized++
				return nil, true, nil
			}
			if len(line) == 0 {
				return nil, false, io.EOF
			}
			if len(line) > t.maxLine {
				t.Oversized++
				return nil, true, nil
			}
			return line, false, nil
		}
		if t.budget <= 0 {
			t.Truncated = true
			return nil, false, io.EOF
		}
		if err := t.readChunk(); err != nil {
			return nil, false, err
		}
	}
}

// readChunk prepends the previous chunk of the file to the partial line.
// Chunks grow with the partial line so a long line costs O(n log n) copying.
func (t *tailReader) readChunk() error {
	n := int64(minChunk)
	if int64(t.end) > n {
		n = int64(t.end)
	}
	if n > 1<<20 {
		n = 1 << 20
	}
	if n > t.pos {
		n = t.pos
	}
	if n > t.budget {
		n = t.budget
	}
	buf := make([]byte, int(n)+t.end)
	if _, err := t.f.ReadAt(buf[:n], t.pos-n); err != nil && err != io.EOF {
		return err
	}
	copy(buf[n:], t.data[:t.end])
	t.pos -= n
	t.budget -= n
	t.data, t.end = buf, len(buf)
	return nil
}
