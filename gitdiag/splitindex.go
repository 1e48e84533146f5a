package gitdiag

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// A split index (core.splitIndex) keeps most entries in a shared index,
// .git/sharedindex.<id>, and only the changes in .git/index: its link
// extension names the shared index and holds two EWAH bitmaps over the
// shared entries, those deleted, then those replaced (by the first entries
// of .git/index, in order, which carry no name); the remaining entries of
// .git/index are added. mergeShared does what git's merge_base_index does.

// mergeShared replaces idx's entries by the merged ones.
func (idx *indexFile) mergeShared(gitDir string) error {
	link := idx.link
	if len(link) < 20 {
		return fmt.Errorf("%w: short link extension", errIndexCorrupt)
	}
	var id plumbing.Hash
	copy(id[:], link[:20])
	if id.IsZero() {
		return nil // no shared index: every entry is here
	}
	deleted, rest, err := decodeEWAH(link[20:])
	if err != nil {
		return err
	}
	replaced, _, err := decodeEWAH(rest)
	if err != nil {
		return err
	}
	b, err := readFile(filepath.Join(gitDir, "sharedindex."+id.String()))
	if err != nil {
		return fmt.Errorf("fatal: cannot read the shared index of this split index: %w", err)
	}
	shared, err := decodeIndex(b)
	if err != nil {
		return fmt.Errorf("the shared index: %w", err)
	}
	if shared.unsupported != "" || shared.link != nil {
		return fmt.Errorf("%w: the shared index is itself split or unreadable", errIndexCorrupt)
	}
	base := shared.entries
	own := idx.entries
	removed := make([]bool, len(base))
	n := 0
	err = eachBit(replaced, func(pos int) error {
		switch {
		case pos >= len(base) || n >= len(own):
			return fmt.Errorf("%w: replacement out of range", errIndexCorrupt)
		case own[n].name != "":
			return fmt.Errorf("%w: a replacing entry has a name", errIndexCorrupt)
		}
		e := *own[n]
		e.name = base[pos].name
		base[pos] = &e
		n++
		return nil
	})
	if err != nil {
		return err
	}
	err = eachBit(deleted, func(pos int) error {
		if pos >= len(base) {
			return fmt.Errorf("%w: deletion out of range", errIndexCorrupt)
		}
		removed[pos] = true
		return nil
	})
	if err != nil {
		return err
	}
	kept := base[:0:0]
	for i, e := range base {
		if !removed[i] {
			kept = append(kept, e)
		}
	}
	for _, e := range own[n:] {
		if e.name == "" {
			return fmt.Errorf("%w: an added entry has no name", errIndexCorrupt)
		}
	}
	idx.entries = mergeEntries(kept, own[n:])
	return nil
}

// mergeEntries merges two sorted entry lists; an entry of adds replaces
// one of base with the same name and stage, as add_index_entry does.
func mergeEntries(base, adds []*indexEntry) []*indexEntry {
	out := make([]*indexEntry, 0, len(base)+len(adds))
	i, j := 0, 0
	for i < len(base) || j < len(adds) {
		switch {
		case j == len(adds):
			out = append(out, base[i])
			i++
		case i == len(base):
			out = append(out, adds[j])
			j++
		default:
			switch c := compareEntries(base[i], adds[j]); {
			case c < 0:
				out = append(out, base[i])
				i++
			case c > 0:
				out = append(out, adds[j])
				j++
			default:
				out = append(out, adds[j])
				i, j = i+1, j+1
			}
		}
	}
	return out
}

func compareEntries(a, b *indexEntry) int {
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	return a.stage - b.stage
}

// ewahBitmap is the 64-bit words of an EWAH-compressed bitmap.
type ewahBitmap []uint64

// decodeEWAH reads one EWAH bitmap as git writes it (ewah_io.c): its size
// in bits, its number of words, the words, and the position of the last
// run-length word; it returns the rest of b.
func decodeEWAH(b []byte) (ewahBitmap, []byte, error) {
	if len(b) < 8 {
		return nil, nil, fmt.Errorf("%w: short bitmap", errIndexCorrupt)
	}
	words := binary.BigEndian.Uint32(b[4:8])
	end := 8 + 8*uint64(words) + 4
	if end > uint64(len(b)) {
		return nil, nil, fmt.Errorf("%w: short bitmap", errIndexCorrupt)
	}
	bm := make(ewahBitmap, words)
	for i := range bm {
		bm[i] = binary.BigEndian.Uint64(b[8+8*i:])
	}
	return bm, b[end:], nil
}

// eachBit calls fn with the position of every set bit, in order, as git's
// ewah_each_bit. A run-length word holds the run bit (bit 0), the number of
// 64-bit words of that bit (bits 1 to 32) and the number of literal words
// that follow it (bits 33 to 63).
func eachBit(bm ewahBitmap, fn func(pos int) error) error {
	const maxPos = 1 << 31 // more entries than any index can hold
	pos := 0
	for i := 0; i < len(bm); {
		w := bm[i]
		run := int((w>>1)&0xffffffff) * 64
		if w&1 != 0 {
			if pos+run > maxPos {
				return fmt.Errorf("%w: bitmap too long", errIndexCorrupt)
			}
			for k := 0; k < run; k++ {
				if err := fn(pos + k); err != nil {
					return err
				}
			}
		}
		pos += run
		i++
		literals := int(w >> 33)
		if literals > len(bm)-i || pos+64*literals > maxPos {
			return fmt.Errorf("%w: bitmap too long", errIndexCorrupt)
		}
		for k := 0; k < literals; k, i = k+1, i+1 {
			for c := 0; c < 64; c, pos = c+1, pos+1 {
				if bm[i]&(1<<c) != 0 {
					if err := fn(pos); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
