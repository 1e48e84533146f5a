package objects

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"

	"github.com/go-git/go-git/v5/plumbing"
)

// Abbreviator finds git's abbreviated object names. It reads pack indexes by
// binary search through ReadAt, so its cost is a few reads per commit
// whatever the size of the history.
type Abbreviator struct {
	store  *Store
	minLen int
}

// packIndex is an open version-2 pack .idx file.
//
// It is read with pread, not mapped: a lookup reads one window of names
// (see search), where a mapping would fault in, and keep resident, the
// 64 KiB the kernel maps around each page touched; on a pack of millions
// of objects a diff stat's thousand lookups kept most of the index.
type packIndex struct {
	f      *os.File
	fanout [256]uint32
}

func NewAbbreviator(store *Store) *Abbreviator {
	var count uint64
	for _, p := range store.packList() {
		count += uint64(p.idx.fanout[255])
	}
	return &Abbreviator{store: store, minLen: defaultAbbrev(count)}
}

// WithMin is the abbreviator giving at least n digits (core.abbrev set to
// a number, or 40 for "no"), in place of the automatic length.
func (a *Abbreviator) WithMin(n int) *Abbreviator {
	return &Abbreviator{store: a.store, minLen: n}
}

// defaultAbbrev is git's core.abbrev=auto: enough hex digits that a collision
// is unlikely among count packed objects, and at least 7.
func defaultAbbrev(count uint64) int {
	msb := 0
	if count > 0 {
		msb = bits.Len64(count) - 1
	}
	n := (msb + 1 + 1) / 2
	if n < 7 {
		n = 7
	}
	return n
}

func openPackIndex(path string) (*packIndex, error) {
	f, err := rawfile.Open(path)
	if err != nil {
		return nil, err
	}
	var head [8 + 256*4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("reading pack index %s: %w", filepath.Base(path), err)
	}
	if !bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) || binary.BigEndian.Uint32(head[4:8]) != 2 {
		f.Close()
		return nil, fmt.Errorf("pack index %s: unsupported format", filepath.Base(path))
	}
	p := &packIndex{f: f}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[8+4*i:])
	}
	return p, nil
}

// neighbours returns the ids just before and after h's place in the index
// (h itself excluded), the only ones that can share the longest prefix.
func (p *packIndex) neighbours(h plumbing.Hash) []plumbing.Hash {
	lo := uint32(0)
	if h[0] > 0 {
		lo = p.fanout[h[0]-1]
	}
	hi := p.fanout[h[0]]
	// Widen by one on each side: the neighbour may sit in the next fan-out bucket.
	if lo > 0 {
		lo--
	}
	if hi < p.fanout[255] {
		hi++
	}
	at := func(i uint32) (plumbing.Hash, bool) {
		var id plumbing.Hash
		_, err := p.f.ReadAt(id[:], int64(8+256*4)+int64(i)*20)
		return id, err == nil
	}
	// First index whose id is >= h.
	i, j := lo, hi
	for i < j {
		m := i + (j-i)/2
		id, ok := at(m)
		if !ok {
			return nil
		}
		if bytes.Compare(id[:], h[:]) < 0 {
			i = m + 1
		} else {
			j = m
		}
	}
	var out []plumbing.Hash
	if i > 0 {
		if id, ok := at(i - 1); ok {
			out = append(out, id)
		}
	}
	for k := i; k < i+2 && k < p.fanout[255]; k++ {
		if id, ok := at(k); ok && id != h {
			out = append(out, id)
			break
		}
	}
	return out
}

// Shortest returns the Shortest prefix of h, at least minLen digits long,
// that no other object in the repository shares.
func (a *Abbreviator) Shortest(h plumbing.Hash) string {
	n := a.minLen
	extend := func(other plumbing.Hash) {
		if common := commonHexPrefix(h, other); common+1 > n {
			n = common + 1
		}
	}
	for _, p := range a.store.packList() {
		for _, o := range p.idx.neighbours(h) {
			extend(o)
		}
	}
	hexID := h.String()
	for _, dir := range a.store.looseDirs {
		entries, err := os.ReadDir(filepath.Join(dir, hexID[:2]))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if rest := e.Name(); len(rest) == 38 && rest != hexID[2:] {
				if o, err := hex.DecodeString(hexID[:2] + rest); err == nil {
					var oh plumbing.Hash
					copy(oh[:], o)
					extend(oh)
				}
			}
		}
	}
	if n > len(hexID) {
		n = len(hexID)
	}
	return hexID[:n]
}

func commonHexPrefix(a, b plumbing.Hash) int {
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			if a[i]>>4 == b[i]>>4 {
				return 2*i + 1
			}
			return 2 * i
		}
	}
	return 2 * len(a)
}
