// Package packtest writes git packs by hand, for tests that need a pack git
// would never write: deltas that name each other, a base at the pack's
// start, chains of any depth.
package packtest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// Entry types, as numbered in pack files.
const (
	Commit   = 1
	Tree     = 2
	Blob     = 3
	Tag      = 4
	OfsDelta = 6
	RefDelta = 7
)

// Entry is one entry of a pack: an object of a type, or a delta on a base
// named by id (RefDelta) or by its place in the list (OfsDelta).
type Entry struct {
	ID    plumbing.Hash // the name the index gives it
	Type  int
	Data  []byte
	RefTo plumbing.Hash
	OfsTo int
	// Offset is where Write put the entry in the pack.
	Offset int64
}

// Write writes entries as pack/pack-test.pack and its version 2 index in
// objectsDir, setting each entry's Offset. No checksum is computed: the
// readers under test do not check it.
func Write(objectsDir string, entries []Entry) error {
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(entries)))
	for i := range entries {
		e := &entries[i]
		e.Offset = int64(pack.Len())
		size := len(e.Data)
		b := byte(e.Type<<4) | byte(size&0x0f)
		for size >>= 4; size > 0; size >>= 7 {
			pack.WriteByte(b | 0x80)
			b = byte(size & 0x7f)
		}
		pack.WriteByte(b)
		switch e.Type {
		case RefDelta:
			pack.Write(e.RefTo[:])
		case OfsDelta:
			pack.Write(OfsEncode(e.Offset - entries[e.OfsTo].Offset))
		}
		w := zlib.NewWriter(&pack)
		w.Write(e.Data)
		w.Close()
	}
	pack.Write(make([]byte, 20))
	sorted := append([]Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].ID[:], sorted[j].ID[:]) < 0 })
	var idx bytes.Buffer
	idx.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	for i := 0; i < 256; i++ {
		n := sort.Search(len(sorted), func(j int) bool { return int(sorted[j].ID[0]) > i })
		binary.Write(&idx, binary.BigEndian, uint32(n))
	}
	for _, e := range sorted {
		idx.Write(e.ID[:])
	}
	idx.Write(make([]byte, 4*len(sorted)))
	for _, e := range sorted {
		binary.Write(&idx, binary.BigEndian, uint32(e.Offset))
	}
	idx.Write(make([]byte, 40))
	dir := filepath.Join(objectsDir, "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "pack-test.pack"), pack.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "pack-test.idx"), idx.Bytes(), 0o644)
}

// OfsEncode is a delta's base offset as a pack writes it.
func OfsEncode(rel int64) []byte {
	enc := []byte{byte(rel & 0x7f)}
	for rel >>= 7; rel > 0; rel >>= 7 {
		rel--
		enc = append([]byte{0x80 | byte(rel&0x7f)}, enc...)
	}
	return enc
}

// Delta is a git delta that makes text from a base of baseLen bytes,
// copying none of it.
func Delta(baseLen int, text string) []byte {
	d := Varint(nil, uint64(baseLen))
	d = Varint(d, uint64(len(text)))
	return append(append(d, byte(len(text))), text...)
}

// Varint appends v as a delta's size header writes it.
func Varint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
