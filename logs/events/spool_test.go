package events

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/logs"
)

func TestAFileIsNamedByItsFirstLine(t *testing.T) {
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:12]) }
	long := strings.Repeat("x", 10<<10)
	huge := strings.Repeat("y", maxHead+100)
	for _, tc := range []struct {
		name, content, want string
	}{
		{"empty", "", ""},
		{"a line not whole yet", "{\"a\":1", ""},
		{"a short line", "first\nsecond\n", hash("first")},
		{"a line past the first read", long + "\nsecond\n", hash(long)},
		{"a line past the bound", huge, hash(huge[:maxHead])},
	} {
		p := filepath.Join(t.TempDir(), "f")
		os.WriteFile(p, []byte(tc.content), 0o600)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := head(f)
		f.Close()
		if err != nil || got != tc.want {
			t.Errorf("%s: head = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func spoolDir(t *testing.T) logs.Dir { return logs.DirFor(t.TempDir()) }

func appendIDs(t *testing.T, d logs.Dir, ids ...string) []Position {
	t.Helper()
	var at []Position
	for _, id := range ids {
		p, err := AppendAt(d, Event{SchemaVersion: 1, Time: time.Now(), Session: id, Subcommand: "init"})
		if err != nil {
			t.Fatal(err)
		}
		at = append(at, p)
	}
	return at
}

func sessionsOf(b Batch) string {
	var ids []string
	for _, e := range b.Events {
		ids = append(ids, e.Session)
	}
	return strings.Join(ids, " ")
}

func rotateLog(t *testing.T, d logs.Dir) {
	t.Helper()
	p := filepath.Join(d.Path, File)
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
}

func TestReadSinceReadsWhatCameAfterAPosition(t *testing.T) {
	d := spoolDir(t)
	at := appendIDs(t, d, "a", "b", "c")
	for _, tc := range []struct {
		from Position
		want string
	}{
		{Position{}, "a b c"},
		{at[1], "b c"}, // AppendAt's position: the offset alone
		{at[2], "c"},
	} {
		b, err := ReadSince(d, tc.from, MaxSize)
		if err != nil || sessionsOf(b) != tc.want || b.Lost || b.More {
			t.Errorf("from %+v: %q, %+v, %v; want %q", tc.from, sessionsOf(b), b, err, tc.want)
		}
		again, _ := ReadSince(d, b.Next, MaxSize)
		if len(again.Events) != 0 || again.Next != b.Next {
			t.Errorf("from %+v then its end: %q, next %+v", tc.from, sessionsOf(again), again.Next)
		}
	}
}

func TestReadSinceReadsWholeLinesWithinItsBound(t *testing.T) {
	d := spoolDir(t)
	at := appendIDs(t, d, "a", "b", "c")
	lineA := int(at[1].Offset - at[0].Offset)
	b, err := ReadSince(d, Position{}, lineA+lineA/2) // a and half of b
	if err != nil || sessionsOf(b) != "a" || !b.More || b.Next.Offset != at[1].Offset {
		t.Fatalf("%q, %+v, %v", sessionsOf(b), b, err)
	}
	b, _ = ReadSince(d, b.Next, MaxSize)
	if sessionsOf(b) != "b c" || b.More {
		t.Errorf("the rest: %q, %+v", sessionsOf(b), b)
	}
	// Nothing read with no room, and More says so.
	if b, _ := ReadSince(d, Position{}, 0); len(b.Events) != 0 || !b.More {
		t.Errorf("no room: %q, %+v", sessionsOf(b), b)
	}
}

func TestReadSinceFollowsARotation(t *testing.T) {
	d := spoolDir(t)
	appendIDs(t, d, "a")
	b, _ := ReadSince(d, Position{}, MaxSize)
	appendIDs(t, d, "b")
	rotateLog(t, d)
	appendIDs(t, d, "c")
	got, err := ReadSince(d, b.Next, MaxSize)
	if err != nil || sessionsOf(got) != "b c" || got.Lost {
		t.Errorf("%q, %+v, %v", sessionsOf(got), got, err)
	}
	// Two rotations: the position's file is gone.
	rotateLog(t, d)
	appendIDs(t, d, "d")
	got, _ = ReadSince(d, b.Next, MaxSize)
	if sessionsOf(got) != "c d" || !got.Lost {
		t.Errorf("after two rotations: %q, %+v", sessionsOf(got), got)
	}
	// A position past the end of its file (cut back by hand): the file is
	// read again from its start.
	cur, _ := ReadSince(d, Position{Offset: 1}, 0)
	got, _ = ReadSince(d, Position{Head: cur.Next.Head, Offset: 1 << 20}, MaxSize)
	if sessionsOf(got) != "d" || !got.Lost {
		t.Errorf("a position past the end: %q, %+v", sessionsOf(got), got)
	}
}

func TestReadSinceSkipsLinesNotSealedAndMovesPastThem(t *testing.T) {
	d := spoolDir(t)
	appendIDs(t, d, "a")
	f, _ := os.OpenFile(filepath.Join(d.Path, File), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"schema_version":1,"time":"2026-01-01T00:00:00Z","session_id":"forged","subcommand":"init"}` + "\n")
	f.Close()
	b, _ := ReadSince(d, Position{}, MaxSize)
	fi, _ := os.Stat(filepath.Join(d.Path, File))
	if sessionsOf(b) != "a" || b.Next.Offset != fi.Size() {
		t.Errorf("%q, next %+v of %d", sessionsOf(b), b.Next, fi.Size())
	}
}

func TestReadSinceWithoutALogSaysSo(t *testing.T) {
	if _, err := ReadSince(spoolDir(t), Position{}, MaxSize); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

// The zero position is the oldest event kept, in the rotated file, and
// one bound covers both files.
func TestReadSinceFromTheStartReadsTheRotatedFileFirst(t *testing.T) {
	d := spoolDir(t)
	at := appendIDs(t, d, "a", "b")
	rotateLog(t, d)
	appendIDs(t, d, "c", "d")
	if b, _ := ReadSince(d, Position{}, MaxSize); sessionsOf(b) != "a b c d" || b.Lost {
		t.Errorf("from the start: %q, %+v", sessionsOf(b), b)
	}
	line := int(at[1].Offset - at[0].Offset)
	// Both lines of the rotated file and one of the current one.
	b, _ := ReadSince(d, Position{}, 3*line+line/2)
	if sessionsOf(b) != "a b c" || !b.More {
		t.Errorf("bounded: %q, %+v", sessionsOf(b), b)
	}
}

// A line longer than the bound is no line of ours: it is passed over,
// and the read goes on after it.
func TestALineLongerThanTheBoundIsPassedOver(t *testing.T) {
	d := spoolDir(t)
	if err := d.Ensure(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(d.Path, File), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("x", 3000) + "\n")
	f.Close()
	appendIDs(t, d, "a")
	b, _ := ReadSince(d, Position{}, 1000)
	if len(b.Events) != 0 || b.Next.Offset != 1000 || !b.More {
		t.Errorf("the long line: %q, %+v", sessionsOf(b), b)
	}
	for range 5 {
		if len(b.Events) == 0 && b.More {
			b, _ = ReadSince(d, b.Next, 1000)
		}
	}
	if sessionsOf(b) != "a" {
		t.Errorf("after the long line: %q, %+v", sessionsOf(b), b)
	}
}

// A bound that holds exactly what is left leaves nothing more.
func TestABoundOfExactlyWhatIsLeftLeavesNoMore(t *testing.T) {
	d := spoolDir(t)
	appendIDs(t, d, "a", "b")
	fi, _ := os.Stat(filepath.Join(d.Path, File))
	if b, _ := ReadSince(d, Position{}, int(fi.Size())); sessionsOf(b) != "a b" || b.More {
		t.Errorf("%q, %+v", sessionsOf(b), b)
	}
	if b, _ := ReadSince(d, Position{}, int(fi.Size())-1); sessionsOf(b) != "a" || !b.More {
		t.Errorf("one byte short: %q, %+v", sessionsOf(b), b)
	}
}
