package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/session-hooks/session-hooks/internal/seal"
	"github.com/session-hooks/session-hooks/logs"
)

// The event log is the spool of an export: a reader keeps a Position and
// reads what was appended since, across a rotation.

// Position is a place in the event log that survives its rotation: the
// hash of the first line of the file it is in (a file is only appended
// to, and rotation renames it, so its first line names it wherever it
// is) and a byte offset in that file. The zero Position is the start of
// the oldest file kept.
type Position struct {
	Head   string `json:"head"`
	Offset int64  `json:"offset"`
}

// maxHead bounds what is read of a file to name it by its first line.
const maxHead = 64 << 10

// head names the file f by the hash of its first line ("" while it has
// none). Most first lines fit the first read; a long one is read further.
func head(f *os.File) (string, error) {
	for size := 4 << 10; ; size = maxHead {
		b := make([]byte, size)
		n, err := f.ReadAt(b, 0)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		line, _, ok := bytes.Cut(b[:n], []byte("\n"))
		switch {
		case ok, n == maxHead:
			sum := sha256.Sum256(line)
			return hex.EncodeToString(sum[:12]), nil
		case n < size:
			return "", nil // no whole line yet
		}
	}
}

// Batch is what ReadSince read.
type Batch struct {
	Events []Event
	Next   Position // after the last line read
	// Lost says the position was in a file rotated away since: the
	// events between it and the oldest file kept are gone.
	Lost bool
	// More says lines were left for another read (the batch was full).
	More bool
	read int // bytes of the log read
}

// ReadSince reads the events after p: the rest of the file p is in, then
// the current file, as many whole lines as max bytes hold. Lines this
// user's session-hooks did not seal are passed over, as Read does.
func ReadSince(d logs.Dir, p Position, max int) (Batch, error) {
	cur, err := openSpool(d, File)
	if err != nil {
		return Batch{Next: p}, err
	}
	defer cur.Close()
	curHead, err := head(cur)
	if err != nil {
		return Batch{Next: p}, err
	}
	b := Batch{}
	if p.Head == "" && p.Offset > 0 {
		p.Head = curHead // AppendAt's position: in the current file
	}
	if p.Head != curHead {
		old, err := openSpool(d, File+".1")
		switch {
		case err == nil:
			defer old.Close()
			oldHead, _ := head(old)
			if p.Head == "" || p.Head != oldHead {
				b.Lost = p.Head != ""
				p = Position{Head: oldHead}
			}
			if b.readFrom(d, old, p, max) {
				return b, nil
			}
		case errors.Is(err, fs.ErrNotExist):
			b.Lost = p.Head != ""
		default:
			return Batch{Next: p}, err
		}
		p = Position{Head: curHead}
	}
	b.readFrom(d, cur, p, max-b.read)
	if b.Next.Head == "" {
		b.Next = p
	}
	return b, nil
}

// readFrom reads f's whole lines from p, at most limit bytes, adding its
// events to b; full says it stopped for want of room.
func (b *Batch) readFrom(d logs.Dir, f *os.File, p Position, limit int) (full bool) {
	fi, err := f.Stat()
	if err != nil {
		b.Next = p
		return false
	}
	if p.Offset > fi.Size() {
		b.Lost, p.Offset = true, 0 // cut back by hand: start again
	}
	buf := make([]byte, min(int64(max(limit, 0)), fi.Size()-p.Offset))
	n, _ := f.ReadAt(buf, p.Offset)
	buf = buf[:n]
	end := bytes.LastIndexByte(buf, '\n') + 1
	if end == 0 && len(buf) > 0 && len(buf) == limit {
		end = len(buf) // one line longer than a batch is no line of ours
	}
	b.read += end
	for line := range bytes.Lines(buf[:end]) {
		if e, ok := decodeLine(d, line); ok {
			b.Events = append(b.Events, e)
		}
	}
	b.Next = Position{Head: p.Head, Offset: p.Offset + int64(end)}
	b.More = b.Next.Offset < fi.Size() && len(buf) == limit
	return b.More
}

// decodeLine is a sealed line's event.
func decodeLine(d logs.Dir, line []byte) (Event, bool) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	body, err := seal.OpenJSON(d.SealName(File), line)
	var e Event
	if err != nil || json.Unmarshal(body, &e) != nil || e.Time.IsZero() {
		return e, false
	}
	return e, true
}

// openSpool opens a file of the event log for reading, refusing a link
// and anything but a regular file.
func openSpool(d logs.Dir, name string) (*os.File, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(d.Path, name), os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.New(name + " is not a regular file")
	}
	return f, nil
}
