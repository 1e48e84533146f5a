package objects

import (
	"crypto/sha1"
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
