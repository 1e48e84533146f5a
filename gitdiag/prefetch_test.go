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
