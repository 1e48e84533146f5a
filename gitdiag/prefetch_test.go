package gitdiag

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

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
	for last, stable := -1, 0; stable < 20; time.Sleep(10 * time.Millisecond) {
		if n := unread(); n == last {
			stable++
		} else {
			last, stable = n, 0
		}
	}
	if n := unread(); n < maxAhead || n > maxAhead+prefetchQueue {
		t.Errorf("%d commits read ahead, want %d to %d", n, maxAhead, maxAhead+prefetchQueue)
	}
	// Taking what was read makes room: reading ahead goes on.
	parents, _, err := p.commit(all[len(all)-1])
	if err != nil || len(parents) != 1 {
		t.Fatal(parents, err)
	}
	before := unread()
	for _, h := range all[len(all)-200 : len(all)-1] {
		p.commit(h)
	}
	time.Sleep(100 * time.Millisecond)
	if n := unread(); n < before-10 {
		t.Errorf("taking 199 commits left %d read ahead (from %d): reading ahead did not go on", n, before)
	}
	p.close()
}
