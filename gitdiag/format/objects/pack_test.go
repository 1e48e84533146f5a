package objects

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects/packtest"
)

// packEntry is a pack entry as the tests write it (packtest.Entry).
type packEntry = packtest.Entry

// writePack writes the entries as a pack in a new objects directory and
// opens a store on it.
func writePack(t *testing.T, entries []packEntry) *Store {
	t.Helper()
	dir := t.TempDir()
	if err := packtest.Write(dir, entries); err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func id(name string) plumbing.Hash { return plumbing.Hash(sha1.Sum([]byte(name))) }

func delta(baseLen int, text string) []byte { return packtest.Delta(baseLen, text) }

// Two deltas naming each other as their base (a crafted pack) are
// refused, as a chain past the bound is, not followed until the stack
// runs out.
func TestDeltasNamingEachOtherAreRefused(t *testing.T) {
	a, b := id("a"), id("b")
	s := writePack(t, []packEntry{
		{ID: a, Type: packtest.RefDelta, RefTo: b, Data: delta(1, "x")},
		{ID: b, Type: packtest.RefDelta, RefTo: a, Data: delta(1, "y")},
	})
	if _, _, err := s.Read(a); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Errorf("a delta cycle read: %v", err)
	}
}

// A chain of deltas as deep as the bound is read, by offset or by id; one
// deeper is refused.
func TestADeltaChainIsReadUpToItsBound(t *testing.T) {
	for _, typ := range []int{packtest.OfsDelta, packtest.RefDelta} {
		for _, depth := range []int{maxDeltaDepth, maxDeltaDepth + 1} {
			entries := []packEntry{{ID: id("base"), Type: TypeBlob, Data: []byte("0")}}
			for i := 1; i <= depth; i++ {
				e := packEntry{ID: id(string(rune('a'+i%26)) + strings.Repeat("x", i)), Type: typ, Data: delta(1, string(rune('0'+i%10)))}
				if typ == packtest.RefDelta {
					e.RefTo = entries[i-1].ID
				} else {
					e.OfsTo = i - 1
				}
				entries = append(entries, e)
			}
			s := writePack(t, entries)
			_, data, err := s.Read(entries[depth].ID)
			if ok := err == nil && string(data) == string(rune('0'+depth%10)); ok != (depth <= maxDeltaDepth) {
				t.Errorf("type %d, a chain of %d: %q, %v", typ, depth, data, err)
			}
		}
	}
}

// copyDelta is a delta that makes an object of n times 64 KiB by copying
// the first 64 KiB of its base n times: one byte per 64 KiB, so a few KB
// of pack claim tens of megabytes at each level of a chain.
func copyDelta(baseLen, n int) []byte {
	d := packtest.Varint(nil, uint64(baseLen))
	d = packtest.Varint(d, uint64(n)<<16)
	for i := 0; i < n; i++ {
		d = append(d, 0x80) // copy: offset 0, size 0 meaning 0x10000
	}
	return d
}

// One budget holds for a whole delta chain: what a read may hold at once
// (the deltas on the way down, a base and the object made from it) stays
// within the bound its use gives, however deep the chain and however much
// each level claims. A bound given afresh at each level let a 2.3 MB pack
// cost a gigabyte.
func TestADeltaChainIsReadWithinOneBudget(t *testing.T) {
	const mib = 1 << 20
	chainOf := func(sizes ...int) (*Store, plumbing.Hash) {
		entries := []packEntry{{ID: id("base"), Type: TypeBlob, Data: bytes.Repeat([]byte("a"), 1<<16)}}
		prev := 1 << 16
		for i, size := range sizes {
			entries = append(entries, packEntry{ID: id(fmt.Sprint("level", i)), Type: packtest.OfsDelta, OfsTo: i, Data: copyDelta(prev, size/(1<<16))})
			prev = size
		}
		return writePack(t, entries), entries[len(entries)-1].ID
	}
	allocated := func(read func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		read()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	t.Run("a chain that claims more at each level", func(t *testing.T) {
		s, top := chainOf(48*mib, 48*mib, 48*mib, 48*mib, mib)
		var err error
		got := allocated(func() { _, _, err = s.ReadLimit(top, MaxCommitSize) })
		var tooLarge *TooLargeError
		if !errors.As(err, &tooLarge) {
			t.Errorf("read: %v; want refused as too large", err)
		}
		if got > 100*mib {
			t.Errorf("the read allocated %d MiB; want at most 100", got/mib)
		}
	})
	t.Run("a chain whose levels fit together", func(t *testing.T) {
		s, top := chainOf(8*mib, 8*mib, 8*mib, 8*mib, mib)
		_, data, err := s.ReadLimit(top, MaxCommitSize)
		if err != nil || len(data) != mib {
			t.Errorf("read: %d bytes, %v; want 1 MiB", len(data), err)
		}
	})
}
