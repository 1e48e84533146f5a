package gitdiag

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
)

// close returns once the goroutine reading ahead has stopped: the store's
// packs are unmapped right after, and a read from them would fault and kill
// the process. Many commits queued ahead make the goroutine busy at close.
func TestClosingThePrefetchStopsItsReadsBeforeThePacksClose(t *testing.T) {
	f := newFixture(t)
	all := randomHistory(t, f, rand.New(rand.NewPCG(5, 6)), dagShape{commits: 3000, merges: 0.2, branchOff: 10})
	for range 5 {
		store, err := objects.OpenStore(filepath.Join(f.dir, ".git", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		p := newPrefetch(store)
		for _, h := range all[:prefetchQueue] {
			p.ask(h)
		}
		p.close()
		store.Close()
		time.Sleep(20 * time.Millisecond) // a goroutine still reading would fault by now
		p.ask(all[len(all)-1])            // asked after close: nothing is read
		time.Sleep(5 * time.Millisecond)
	}
}

// Reading ahead stops once maxAhead commits read are waiting to be taken:
// a walk that stops early leaves at most that much work done for nothing
// (and at most one queue more, asked before the bound was reached).
func TestReadingAheadStopsAtItsBound(t *testing.T) {
	f := newFixture(t)
	all := randomHistory(t, f, rand.New(rand.NewPCG(7, 8)), dagShape{commits: maxAhead + 2*prefetchQueue + 500, branchOff: 1})
	store, err := objects.OpenStore(filepath.Join(f.dir, ".git", "objects"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p := newPrefetch(store)
	p.ask(all[len(all)-1])
	unread := func() int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.unread
	}
	settle := func() {
		for last, stable := -1, 0; stable < 20; time.Sleep(10 * time.Millisecond) {
			if n := unread(); n == last {
				stable++
			} else {
				last, stable = n, 0
			}
		}
	}
	settle()
	// A line of commits asks one parent at a time: the bound is exact.
	if n := unread(); n != maxAhead {
		t.Errorf("%d commits read ahead, want %d", n, maxAhead)
	}
	// Taking what was read makes room: reading ahead goes on.
	parents, _, err := p.commit(all[len(all)-1])
	if err != nil || len(parents) != 1 {
		t.Fatal(parents, err)
	}
	for _, h := range all[len(all)-200 : len(all)-1] {
		p.commit(h)
	}
	// Each commit taken makes room for one more: 200 more were read.
	settle()
	if n := unread(); n != maxAhead {
		t.Errorf("after 200 commits taken, %d read ahead, want %d", n, maxAhead)
	}
	p.mu.Lock()
	deepest := p.asked[all[len(all)-maxAhead-200]] // 200 taken, the tip included
	p.mu.Unlock()
	if !deepest {
		t.Error("reading ahead did not go on past the commits taken")
	}
	// What is asked past the bound waits, up to the bound: a walk asks
	// for at most that many commits more than it takes.
	for i := range 3 * maxAhead {
		p.ask(plumbing.Hash{0xff, byte(i >> 8), byte(i)})
	}
	p.mu.Lock()
	waiting := len(p.waiting)
	p.mu.Unlock()
	if waiting != maxAhead {
		t.Errorf("%d commits wait to be read ahead, want %d", waiting, maxAhead)
	}
	p.close()
}
