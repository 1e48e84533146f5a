package objects

import (
	"bytes"
	"compress/zlib"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects/packtest"
)

// looseObject writes a loose object file, its zlib stream flushed after
// each piece: the reader then gets the header in as many reads, as it may
// from any stream.
func looseObject(t *testing.T, dir string, h plumbing.Hash, pieces ...string) {
	t.Helper()
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	for _, p := range pieces {
		w.Write([]byte(p))
		w.Flush()
	}
	w.Close()
	p := filepath.Join(dir, h.String()[:2], h.String()[2:])
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, z.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
}

func TestLooseObjectsAreReadWhateverTheirStreamsPieces(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		data   string // "" with ok false: refused
		ok     bool
	}{
		{"a small blob in one piece", []string{"blob 5\x00hello"}, "hello", true},
		{"an empty blob", []string{"blob 0\x00"}, "", true},
		{"the header in three pieces", []string{"bl", "ob 1", "1\x00hello", " world"}, "hello world", true},
		{"a header that never ends", []string{"blob 5", strings.Repeat("5", 100)}, "", false},
		{"more bytes than the header says", []string{"blob 2\x00hello"}, "", false},
		{"fewer bytes than the header says", []string{"blob 9\x00hello"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			h := id(tt.name)
			looseObject(t, dir, h, tt.pieces...)
			s, err := OpenStore(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			typ, data, err := s.Read(h)
			if (err == nil) != tt.ok || tt.ok && (typ != TypeBlob || string(data) != tt.data) {
				t.Errorf("got %d %q, %v", typ, data, err)
			}
		})
	}
}

func TestTreesAreReadEntryByEntryAndACorruptOneIsRefused(t *testing.T) {
	hash := strings.Repeat("\x01", 20)
	tests := []struct {
		name    string
		data    string
		entries int
		ok      bool
	}{
		{"two entries", "100644 a.txt\x00" + hash + "40000 dir\x00" + hash, 2, true},
		{"an empty tree", "", 0, true},
		{"no space", "100644a.txt\x00" + hash, 0, false},
		{"a NUL before the space", "100644\x00a b" + hash, 0, false},
		{"an id cut short", "100644 a.txt\x00" + hash[:19], 0, false},
		{"a mode that is not octal", "100648 a.txt\x00" + hash, 0, false},
		{"an id of exactly twenty bytes, then nothing", "100644 a\x00" + hash, 1, true},
	}
	for _, tt := range tests {
		entries, err := parseTree(plumbing.ZeroHash, []byte(tt.data))
		if (err == nil) != tt.ok || len(entries) != tt.entries {
			t.Errorf("%s: %d entries, %v", tt.name, len(entries), err)
		}
	}
	entries, _ := parseTree(plumbing.ZeroHash, []byte("100755 run.sh\x00"+hash+"40000 src\x00"+strings.Repeat("\x02", 20)))
	if len(entries) != 2 || entries[0].Mode != 0o100755 || entries[0].Name != "run.sh" || entries[0].Hash[0] != 1 ||
		entries[1].Mode != 0o40000 || entries[1].Name != "src" || entries[1].Hash[19] != 2 {
		t.Errorf("entries %+v", entries)
	}
}

func TestTheCommitterDateIsTheNumberAfterTheEmail(t *testing.T) {
	tests := []struct {
		sig  string
		want int64
	}{
		{"A U Thor <a@example.com> 1700000000 +0100", 1700000000},
		{"A <a> 5", 5},
		{"Odd > name <a@b> 42 -0500", 42},
		{"no email at all", 0},
		{"A <a@b>", 0},
		{"A <a@b> soon", 0},
	}
	for _, tt := range tests {
		if got := signatureTime([]byte(tt.sig)); got != tt.want {
			t.Errorf("signatureTime(%q) = %d, want %d", tt.sig, got, tt.want)
		}
	}
}

func TestSizesAndOffsetsAreReadWithinTheirBounds(t *testing.T) {
	if _, _, ok := deltaSize([]byte{0x80}); ok {
		t.Error("a size cut short was read")
	}
	if n, rest, ok := deltaSize([]byte{0x85, 0x01, 0xaa}); !ok || n != 133 || len(rest) != 1 {
		t.Errorf("deltaSize: %d %v %v", n, rest, ok)
	}
	// An entry of exactly the largest object is read; one byte more is not.
	enc := func(size int64) []byte {
		b := []byte{byte(TypeBlob<<4) | byte(size&0x0f)}
		for size >>= 4; size > 0; size >>= 7 {
			b[len(b)-1] |= 0x80
			b = append(b, byte(size&0x7f))
		}
		return b
	}
	if _, size, err := entryHeader(bytes.NewReader(enc(maxObjectSize))); err != nil || size != maxObjectSize {
		t.Errorf("the largest object: %d, %v", size, err)
	}
	if _, _, err := entryHeader(bytes.NewReader(enc(maxObjectSize + 1))); err == nil {
		t.Error("an object past the largest was accepted")
	}
	for limit, want := range map[int64]int64{1 << 20: 32 << 20, 16 << 20: 32 << 20, 64 << 20: 128 << 20, 256 << 20: maxObjectSize} {
		if got := baseLimit(limit); got != want {
			t.Errorf("baseLimit(%d) = %d, want %d", limit, got, want)
		}
	}
}

// The names read around the index's guess grow with the bucket, four
// times the guess's typical error each side, from 32 to searchWindow.
func TestTheSearchWindowGrowsWithTheBucket(t *testing.T) {
	for n, want := range map[uint32]uint32{1: 32, 64: 32, 65: 64, 256: 64, 257: 128, 1024: 128, 1025: 256, 1 << 20: 256} {
		if got := windowFor(n); got != want {
			t.Errorf("windowFor(%d) = %d, want %d", n, got, want)
		}
	}
}

// A delta whose base offset is zero, or the pack's start, is refused as
// such, not read as whatever lies there.
func TestADeltaBaseOutsideThePackIsRefused(t *testing.T) {
	for _, rel := range []int{0, -1} {
		entries := []packEntry{{ID: id("x"), Type: TypeBlob, Data: []byte("x")}, {ID: id("d"), Type: objOfsDelta, Data: delta(1, "y")}}
		s := writePack(t, entries)
		// Rewrite the delta's base offset: 0 (itself), or its own offset
		// (the pack's first byte).
		path := filepath.Join(s.dir, "pack", "pack-test.pack")
		b, _ := os.ReadFile(path)
		off := entries[1].Offset + 1
		r := entries[1].Offset
		if rel == 0 {
			r = 0
		}
		enc := packtest.OfsEncode(r)
		if len(enc) != 1 {
			t.Skip("the offset takes more than one byte")
		}
		b[off] = enc[0]
		os.Chmod(path, 0o644)
		os.WriteFile(path, b, 0o444)
		s2, err := OpenStore(s.dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s2.Read(id("d")); err == nil || !strings.Contains(err.Error(), "bad delta base offset") {
			t.Errorf("a base %d back: %v", rel, err)
		}
		s2.Close()
	}
}

// Reading a pack past the mapping's budget maps no more windows than the
// budget holds (each counts as resident memory until the hook exits), and
// reads the rest with pread, the same bytes.
func TestAPackIsMappedUpToItsBudgetAndReadPastIt(t *testing.T) {
	var entries []packEntry
	seed := uint32(1)
	for i := range 100 {
		blob := make([]byte, 64<<10)
		for j := range blob {
			seed = seed*1664525 + 1013904223
			blob[j] = byte(seed >> 24)
		}
		entries = append(entries, packEntry{ID: id(strings.Repeat("b", i+1)), Type: TypeBlob, Data: blob})
	}
	s := writePack(t, entries)
	if s.packList()[0].data.Bytes() == nil {
		t.Skip("packs are not mapped here")
	}
	for _, e := range entries {
		_, data, err := s.Read(e.ID)
		if err != nil || !bytes.Equal(data, e.Data) {
			t.Fatalf("%s: %d bytes, %v", e.ID, len(data), err)
		}
	}
	if want := mappedBudget / mappedWindow; s.mappedWindows != want || len(s.packList()[0].windows) != want {
		t.Errorf("%d windows mapped (%d in the pack's set), want the budget's %d", s.mappedWindows, len(s.packList()[0].windows), want)
	}
}

// A packed object of exactly the limit given is read; one byte over it is
// refused before it is inflated.
func TestAPackedObjectOfExactlyTheLimitIsRead(t *testing.T) {
	s := writePack(t, []packEntry{{ID: id("ten"), Type: TypeBlob, Data: []byte("0123456789")}})
	if _, data, err := s.ReadLimit(id("ten"), 10); err != nil || string(data) != "0123456789" {
		t.Errorf("at the limit: %q, %v", data, err)
	}
	s = writePack(t, []packEntry{{ID: id("ten"), Type: TypeBlob, Data: []byte("0123456789")}})
	var tl *TooLargeError
	if _, _, err := s.ReadLimit(id("ten"), 9); !errors.As(err, &tl) {
		t.Errorf("past the limit: %v", err)
	}
}
