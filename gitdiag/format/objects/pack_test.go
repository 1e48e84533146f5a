package objects

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// packEntry is one entry of a pack written by hand: an object of a type,
// or a delta on a base named by id (ref) or by its place in the pack (ofs).
type packEntry struct {
	id     plumbing.Hash // the name the index gives it
	typ    int
	data   []byte
	refTo  plumbing.Hash // objRefDelta: the base's id
	ofsTo  int           // objOfsDelta: the base's place in the list
	offset int64
}

// writePack writes the entries as objects/pack/pack-test.{pack,idx} in a
// new objects directory and opens a store on it. No checksum is checked
// on read, so none is computed.
func writePack(t *testing.T, entries []packEntry) *Store {
	t.Helper()
	dir := t.TempDir()
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(entries)))
	for i := range entries {
		e := &entries[i]
		e.offset = int64(pack.Len())
		size := len(e.data)
		b := byte(e.typ<<4) | byte(size&0x0f)
		size >>= 4
		for size > 0 {
			pack.WriteByte(b | 0x80)
			b = byte(size & 0x7f)
			size >>= 7
		}
		pack.WriteByte(b)
		switch e.typ {
		case objRefDelta:
			pack.Write(e.refTo[:])
		case objOfsDelta:
			rel := e.offset - entries[e.ofsTo].offset
			var enc []byte
			enc = append(enc, byte(rel&0x7f))
			for rel >>= 7; rel > 0; rel >>= 7 {
				rel--
				enc = append([]byte{0x80 | byte(rel&0x7f)}, enc...)
			}
			pack.Write(enc)
		}
		w := zlib.NewWriter(&pack)
		w.Write(e.data)
		w.Close()
	}
	pack.Write(make([]byte, 20))
	sorted := append([]packEntry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].id[:], sorted[j].id[:]) < 0 })
	var idx bytes.Buffer
	idx.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	for i := 0; i < 256; i++ {
		n := sort.Search(len(sorted), func(j int) bool { return int(sorted[j].id[0]) > i })
		binary.Write(&idx, binary.BigEndian, uint32(n))
	}
	for _, e := range sorted {
		idx.Write(e.id[:])
	}
	idx.Write(make([]byte, 4*len(sorted)))
	for _, e := range sorted {
		binary.Write(&idx, binary.BigEndian, uint32(e.offset))
	}
	idx.Write(make([]byte, 40))
	packs := filepath.Join(dir, "pack")
	os.MkdirAll(packs, 0o755)
	os.WriteFile(filepath.Join(packs, "pack-test.pack"), pack.Bytes(), 0o444)
	os.WriteFile(filepath.Join(packs, "pack-test.idx"), idx.Bytes(), 0o444)
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func id(name string) plumbing.Hash { return plumbing.Hash(sha1.Sum([]byte(name))) }

// delta is a git delta that inserts text on an empty copy of a base of
// baseLen bytes.
func delta(baseLen int, text string) []byte {
	d := appendVarint(nil, uint64(baseLen))
	d = appendVarint(d, uint64(len(text)))
	return append(append(d, byte(len(text))), text...)
}

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// Two deltas naming each other as their base (a crafted pack) are
// refused, as a chain past the bound is, not followed until the stack
// runs out.
func TestDeltasNamingEachOtherAreRefused(t *testing.T) {
	a, b := id("a"), id("b")
	s := writePack(t, []packEntry{
		{id: a, typ: objRefDelta, refTo: b, data: delta(1, "x")},
		{id: b, typ: objRefDelta, refTo: a, data: delta(1, "y")},
	})
	if _, _, err := s.Read(a); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Errorf("a delta cycle read: %v", err)
	}
}

// A chain of deltas as deep as the bound is read, by offset or by id; one
// deeper is refused.
func TestADeltaChainIsReadUpToItsBound(t *testing.T) {
	for _, typ := range []int{objOfsDelta, objRefDelta} {
		for _, depth := range []int{maxDeltaDepth, maxDeltaDepth + 1} {
			entries := []packEntry{{id: id("base"), typ: TypeBlob, data: []byte("0")}}
			for i := 1; i <= depth; i++ {
				e := packEntry{id: id(string(rune('a'+i%26)) + strings.Repeat("x", i)), typ: typ, data: delta(1, string(rune('0'+i%10)))}
				if typ == objRefDelta {
					e.refTo = entries[i-1].id
				} else {
					e.ofsTo = i - 1
				}
				entries = append(entries, e)
			}
			s := writePack(t, entries)
			_, data, err := s.Read(entries[depth].id)
			if ok := err == nil && string(data) == string(rune('0'+depth%10)); ok != (depth <= maxDeltaDepth) {
				t.Errorf("type %d, a chain of %d: %q, %v", typ, depth, data, err)
			}
		}
	}
}
