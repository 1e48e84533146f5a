package gitdiag

import (
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
)

// prefetch reads, on a second goroutine, the commits a walk of the history
// will read next: the parents of each commit read, and theirs, breadth
// first, which is close to the newest-first order of the walk. Inflating
// commits is most of a walk's cost where there is no commit-graph; the
// second core keeps ahead of the first, within bounds.
type prefetch struct {
	store   *objects.Store
	mu      sync.Mutex
	pending map[plumbing.Hash]*fetched // asked for, not yet taken
	asked   map[plumbing.Hash]bool     // ever asked for: each is read once
	unread  int                        // read ahead, not yet taken
	// waiting are the commits asked for while maxAhead were read and not
	// taken: asked again, oldest first, as the walk takes what was read,
	// so that reading ahead keeps its lead.
	waiting []plumbing.Hash
	queue   chan *fetched
	stop    chan struct{}
	started bool
	closed  bool // by close: nothing more is read ahead
	// done is closed when the second goroutine has returned: the store's
	// files may be unmapped only after (a read from an unmapped pack
	// faults and kills the process).
	done chan struct{}
}

// maxAhead bounds the commits read ahead and not yet taken: a walk that
// stops leaves at most this much work done for nothing.
const maxAhead = 2048

// fetched is one commit asked for: whoever claims it first reads it, the
// other waits for ready.
type fetched struct {
	h       plumbing.Hash
	claimed atomic.Bool
	ready   chan struct{}
	parents []plumbing.Hash
	when    int64
	err     error
}

// prefetchQueue bounds the commits asked for ahead: past it, asks are
// dropped and the walk reads those commits itself.
const prefetchQueue = 256

func newPrefetch(store *objects.Store) *prefetch {
	return &prefetch{store: store, pending: map[plumbing.Hash]*fetched{}, asked: map[plumbing.Hash]bool{}}
}

// ask queues h to be read ahead, unless it is queued already, the queue
// is full, or maxAhead commits read wait to be taken (then h waits too).
func (p *prefetch) ask(h plumbing.Hash) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.askLocked(h)
}

func (p *prefetch) askLocked(h plumbing.Hash) {
	if p.closed || p.asked[h] {
		return
	}
	if p.unread >= maxAhead {
		if len(p.waiting) < maxAhead {
			p.waiting = append(p.waiting, h)
		}
		return
	}
	if !p.started {
		p.started = true
		p.queue, p.stop, p.done = make(chan *fetched, prefetchQueue), make(chan struct{}), make(chan struct{})
		go p.work(p.queue, p.stop, p.done)
	}
	f := &fetched{h: h, ready: make(chan struct{})}
	select {
	case p.queue <- f:
		p.pending[h], p.asked[h] = f, true
	default:
	}
}

func (p *prefetch) work(queue chan *fetched, stop, done chan struct{}) {
	defer close(done)
	for {
		select {
		case <-stop: // before the queue: select picks among ready cases at random
			return
		default:
		}
		select {
		case f := <-queue:
			if !f.claimed.CompareAndSwap(false, true) {
				continue
			}
			f.read(p.store)
			p.mu.Lock()
			p.unread++
			p.mu.Unlock()
			for _, parent := range f.parents {
				p.ask(parent)
			}
		case <-stop:
			return
		}
	}
}

func (f *fetched) read(store *objects.Store) {
	f.parents, f.when, f.err = store.CommitHeader(f.h)
	close(f.ready)
}

// commit reads h: what the second goroutine read of it, or read now.
func (p *prefetch) commit(h plumbing.Hash) ([]plumbing.Hash, int64, error) {
	p.mu.Lock()
	f := p.pending[h]
	delete(p.pending, h)
	p.asked[h] = true // read now: never read ahead again
	p.mu.Unlock()
	if f == nil {
		return p.store.CommitHeader(h)
	}
	if f.claimed.CompareAndSwap(false, true) {
		f.read(p.store)
		return f.parents, f.when, f.err
	}
	<-f.ready
	p.mu.Lock()
	p.unread--
	if len(p.waiting) > 0 && p.unread < maxAhead {
		h, rest := p.waiting[0], p.waiting[1:]
		p.waiting = rest
		p.askLocked(h)
	}
	p.mu.Unlock()
	return f.parents, f.when, f.err
}

// close stops the second goroutine and waits for it to return: it reads
// at most the commit it is reading.
func (p *prefetch) close() {
	p.mu.Lock()
	started, done := p.started, p.done
	if started {
		close(p.stop)
	}
	p.closed = true
	p.mu.Unlock()
	if started {
		<-done
	}
}
