package gitdiag

import (
	"cmp"
	"container/heap"
	"context"
	"slices"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/commitgraph"
	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
)

// This file is git's own walk between two commits, as git 2.39 runs it for
// `git rev-list --left-right --count A...B` and for the "ahead, behind"
// of `git status` (remote.c's stat_branch_pair): the merge bases by
// commit-reach.c's paint_down_to_common and remove_redundant, then
// revision.c's limit_list with its stop rule ("SLOP") from A, B and the
// bases marked uninteresting. Its counts are git's even where git's stop
// rule is not exact (commits dated before their parents, a series made
// within one second), and it reads the commits git reads, in git's order:
// by generation number when the commit-graph has corrected dates, by date
// otherwise.

// Flags of git's walks (commit-reach.c, revision.h).
const (
	wParent1 = 1 << iota
	wParent2
	wStale
	wResult
	wSeen
	wAdded
	wUninteresting
	wLeft      // SYMMETRIC_LEFT
	paintFlags = wParent1 | wParent2 | wStale | wResult
)

// infinity is GENERATION_NUMBER_INFINITY: the generation of a commit the
// graph does not hold.
const infinity = 1<<63 - 1

// slop is how many more uninteresting commits limit_list takes once every
// commit left is uninteresting (revision.c's SLOP).
const slop = 5

type wcommit struct {
	hash    plumbing.Hash
	parents []*wcommit
	date    int64
	gen     uint64
	flags   uint16
	parsed  bool
	queued  int32           // entries in the paint queue
	pos     commitgraph.Pos // place in the graph, when inGraph
	inGraph bool
}

// revWalk holds the commits of one walk, each parsed at most once, as
// git's object table does: what the merge-base walk parsed, the
// uninteresting marks later reach through.
type revWalk struct {
	ctx     context.Context
	store   *objects.Store
	graph   *commitgraph.Graph // nil: none, or git would not use it
	commits map[plumbing.Hash]*wcommit
	ahead   *prefetch
	done    <-chan struct{} // ctx.Done(), looked at before each commit read
}

func newRevWalk(ctx context.Context, store *objects.Store, graph *commitgraph.Graph) *revWalk {
	return &revWalk{ctx: ctx, store: store, graph: graph, commits: map[plumbing.Hash]*wcommit{}, ahead: newPrefetch(store), done: ctx.Done()}
}

// close stops reading ahead.
func (w *revWalk) close() { w.ahead.close() }

func (w *revWalk) lookup(h plumbing.Hash) *wcommit {
	c := w.commits[h]
	if c == nil {
		c = &wcommit{hash: h}
		w.commits[h] = c
	}
	return c
}

// parse reads a commit's parents, date and generation: from the graph when
// it holds the commit, else from its object.
func (w *revWalk) parse(c *wcommit) error {
	if c.parsed {
		return nil
	}
	select { // a receive that does not wait costs a few nanoseconds
	case <-w.done:
		return w.ctx.Err()
	default:
	}
	if w.graph != nil && !c.inGraph {
		c.pos, c.inGraph = w.graph.Lookup(c.hash)
	}
	if c.inGraph {
		gc, err := w.graph.Commit(c.pos)
		if err != nil {
			return err
		}
		for _, p := range gc.Parents {
			h, err := w.graph.Hash(p)
			if err != nil {
				return err
			}
			pc := w.lookup(h)
			pc.pos, pc.inGraph = p, true
			c.parents = append(c.parents, pc)
		}
		c.date, c.gen = gc.When, gc.Generation
	} else {
		parents, when, err := w.ahead.commit(c.hash)
		if err != nil {
			return err
		}
		for _, p := range parents {
			pc := w.lookup(p)
			c.parents = append(c.parents, pc)
			if !pc.parsed {
				w.ahead.ask(p)
			}
		}
		c.date, c.gen = when, infinity
	}
	c.parsed = true
	return nil
}

// byDate inserts c into list, which runs from the newest commit, after
// every commit as new as it (commit_list_insert_by_date).
func byDate(list []*wcommit, c *wcommit) []*wcommit {
	i := sort.Search(len(list), func(i int) bool { return list[i].date < c.date })
	return slices.Insert(list, i, c)
}

// paintQueue is paint_down_to_common's priority queue: the highest
// generation first when ordered by generation, then the newest date, then
// the first put. It counts its entries that are not stale, which git
// finds by scanning the queue.
type paintQueue struct {
	items    []*wcommit
	seqs     []int
	seq      int
	byGen    bool
	nonstale int
}

func (q *paintQueue) Len() int { return len(q.items) }
func (q *paintQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	byGen := 0
	if q.byGen {
		byGen = cmp.Compare(b.gen, a.gen)
	}
	return cmp.Or(byGen, cmp.Compare(b.date, a.date), cmp.Compare(q.seqs[i], q.seqs[j])) < 0
}
func (q *paintQueue) Swap(i, j int) {
	q.items[i], q.items[j] = q.items[j], q.items[i]
	q.seqs[i], q.seqs[j] = q.seqs[j], q.seqs[i]
}
func (q *paintQueue) Push(x any) {
	q.items = append(q.items, x.(*wcommit))
	q.seq++
	q.seqs = append(q.seqs, q.seq)
}
func (q *paintQueue) Pop() any {
	n := len(q.items) - 1
	c := q.items[n]
	q.items, q.seqs = q.items[:n], q.seqs[:n]
	return c
}

func (q *paintQueue) put(c *wcommit) {
	heap.Push(q, c)
	c.queued++
	if c.flags&wStale == 0 {
		q.nonstale++
	}
}

func (q *paintQueue) get() *wcommit {
	c := heap.Pop(q).(*wcommit)
	c.queued--
	if c.flags&wStale == 0 {
		q.nonstale--
	}
	return c
}

// paint sets flags on c, keeping the queue's count of entries that are
// not stale.
func (q *paintQueue) paint(c *wcommit, flags uint16) {
	if flags&wStale != 0 && c.flags&wStale == 0 {
		q.nonstale -= int(c.queued)
	}
	c.flags |= flags
}

func (q *paintQueue) clear() {
	for _, c := range q.items {
		c.queued = 0
	}
	q.items, q.seqs, q.nonstale = nil, nil, 0
}

// corrected says git orders its merge-base walk by generation.
func (w *revWalk) corrected() bool { return w.graph != nil && w.graph.Corrected }

// paintDownToCommon paints the commits reachable from one (PARENT1) and
// from twos (PARENT2), newest first, until every commit queued is below a
// common one; it returns the common ones found, newest first.
func (w *revWalk) paintDownToCommon(one *wcommit, twos []*wcommit, minGen uint64) ([]*wcommit, error) {
	q := &paintQueue{byGen: minGen != 0 || w.corrected()}
	defer q.clear()
	one.flags |= wParent1
	if len(twos) == 0 {
		return []*wcommit{one}, nil
	}
	q.put(one)
	for _, t := range twos {
		t.flags |= wParent2
		q.put(t)
	}
	var result []*wcommit
	for q.nonstale > 0 {
		c := q.get()
		if c.gen < minGen {
			break
		}
		flags := c.flags & (wParent1 | wParent2 | wStale)
		if flags == wParent1|wParent2 {
			if c.flags&wResult == 0 {
				c.flags |= wResult
				result = byDate(result, c)
			}
			flags |= wStale
		}
		for _, p := range c.parents {
			if p.flags&flags == flags {
				continue
			}
			if err := w.parse(p); err != nil {
				return nil, err
			}
			q.paint(p, flags)
			q.put(p)
		}
	}
	return result, nil
}

// clearPaint is clear_commit_marks for the merge-base flags: every commit
// painted is reachable from the tips through painted commits.
func (w *revWalk) clearPaint() {
	for _, c := range w.commits {
		c.flags &^= paintFlags
	}
}

// mergeBases is repo_get_merge_bases(one, two): the best common ancestors,
// newest first.
func (w *revWalk) mergeBases(one, two *wcommit) ([]*wcommit, error) {
	if one == two {
		return []*wcommit{one}, nil
	}
	if err := w.parse(one); err != nil {
		return nil, err
	}
	if err := w.parse(two); err != nil {
		return nil, err
	}
	painted, err := w.paintDownToCommon(one, []*wcommit{two}, 0)
	if err != nil {
		return nil, err
	}
	var result []*wcommit
	for _, c := range painted {
		if c.flags&wStale == 0 {
			result = byDate(result, c)
		}
	}
	w.clearPaint()
	if len(result) <= 1 {
		return result, nil
	}
	kept, err := w.removeRedundant(result)
	if err != nil {
		return nil, err
	}
	var out []*wcommit
	for _, c := range kept {
		out = byDate(out, c)
	}
	return out, nil
}

// removeRedundant keeps the commits of array that no other one reaches.
func (w *revWalk) removeRedundant(array []*wcommit) ([]*wcommit, error) {
	if w.graph != nil && w.graph.Levels {
		for _, c := range array {
			if c.gen < infinity {
				return w.removeRedundantWithGen(array)
			}
		}
	}
	return w.removeRedundantNoGen(array)
}

func (w *revWalk) removeRedundantNoGen(array []*wcommit) ([]*wcommit, error) {
	redundant := make([]bool, len(array))
	for _, c := range array {
		if err := w.parse(c); err != nil {
			return nil, err
		}
	}
	for i, c := range array {
		if redundant[i] {
			continue
		}
		var work []*wcommit
		var at []int
		minGen := c.gen
		for j, o := range array {
			if i == j || redundant[j] {
				continue
			}
			work, at = append(work, o), append(at, j)
			minGen = min(minGen, o.gen)
		}
		if _, err := w.paintDownToCommon(c, work, minGen); err != nil {
			return nil, err
		}
		if c.flags&wParent2 != 0 {
			redundant[i] = true
		}
		for k, o := range work {
			if o.flags&wParent1 != 0 {
				redundant[at[k]] = true
			}
		}
		w.clearPaint()
	}
	var out []*wcommit
	for i, c := range array {
		if !redundant[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// byGen is compare_commits_by_gen: the lower generation first, then the
// older date.
func byGen(a, b *wcommit) int {
	if c := cmp.Compare(a.gen, b.gen); c != 0 {
		return c
	}
	return cmp.Compare(a.date, b.date)
}

func (w *revWalk) removeRedundantWithGen(array []*wcommit) ([]*wcommit, error) {
	sorted := slices.Clone(array)
	slices.SortStableFunc(sorted, byGen)
	minGen := sorted[0].gen
	minGenPos := 0
	independent := len(array)
	var starts []*wcommit
	for _, c := range array {
		if err := w.parse(c); err != nil {
			return nil, err
		}
		c.flags |= wResult
		for _, p := range c.parents {
			if err := w.parse(p); err != nil {
				return nil, err
			}
			if p.flags&wStale == 0 {
				p.flags |= wStale
				starts = append(starts, p)
			}
		}
	}
	slices.SortStableFunc(starts, byGen)
	for _, s := range starts {
		s.flags &^= wStale
	}
	for i := len(starts) - 1; i >= 0 && independent > 1; i-- {
		stack := []*wcommit{starts[i]}
		starts[i].flags |= wStale
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			if err := w.parse(c); err != nil {
				return nil, err
			}
			if c.flags&wResult != 0 {
				c.flags &^= wResult
				if independent--; independent <= 1 {
					break
				}
				if c == sorted[minGenPos] {
					for minGenPos < len(sorted)-1 && sorted[minGenPos].flags&wStale != 0 {
						minGenPos++
					}
					minGen = sorted[minGenPos].gen
				}
			}
			if c.gen < minGen {
				stack = stack[:len(stack)-1]
				continue
			}
			pushed := false
			for _, p := range c.parents {
				if p.flags&wStale == 0 {
					p.flags |= wStale
					stack = append(stack, p)
					pushed = true
					break
				}
			}
			if !pushed {
				stack = stack[:len(stack)-1]
			}
		}
	}
	var out []*wcommit
	for _, c := range array {
		c.flags &^= wResult
		if c.flags&wStale == 0 {
			out = append(out, c)
		}
	}
	w.clearStale()
	return out, nil
}

// clearStale is clear_commit_marks_many(walk_start, STALE): the marks the
// walks above left, reachable from where they started.
func (w *revWalk) clearStale() {
	for _, c := range w.commits {
		c.flags &^= wStale
	}
}

// markParentsUninteresting marks every parsed ancestor of c uninteresting:
// an unparsed one is marked, and passes the mark on when it is parsed.
func markParentsUninteresting(c *wcommit) {
	var stack []*wcommit
	mark := func(p *wcommit) {
		if p.flags&wUninteresting != 0 {
			return
		}
		p.flags |= wUninteresting
		stack = append(stack, p.parents...)
	}
	for _, p := range c.parents {
		mark(p)
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		mark(p)
	}
}

// leftRight counts the commits of a...b on each side, as `git rev-list
// --left-right --count a...b` does.
func (w *revWalk) leftRight(a, b plumbing.Hash) (left, right int, err error) {
	ca, cb := w.lookup(a), w.lookup(b)
	if err := w.parse(ca); err != nil {
		return 0, 0, err
	}
	if err := w.parse(cb); err != nil {
		return 0, 0, err
	}
	bases, err := w.mergeBases(ca, cb)
	if err != nil {
		return 0, 0, err
	}
	for _, c := range bases {
		c.flags |= wUninteresting
	}
	ca.flags |= wLeft
	var list []*wcommit
	for _, c := range append(bases, ca, cb) {
		if err := w.parse(c); err != nil {
			return 0, 0, err
		}
		if c.flags&wUninteresting != 0 {
			markParentsUninteresting(c)
		}
		if c.flags&wSeen == 0 {
			c.flags |= wSeen
			list = append(list, c)
		}
	}
	slices.SortStableFunc(list, func(x, y *wcommit) int { return cmp.Compare(y.date, x.date) })
	shown, err := w.limitList(list)
	if err != nil {
		return 0, 0, err
	}
	for _, c := range shown {
		switch {
		case c.flags&wUninteresting != 0:
		case c.flags&wLeft != 0:
			left++
		default:
			right++
		}
	}
	return left, right, nil
}

// limitList is revision.c's limit_list: it takes commits newest first,
// passing marks to their parents, and stops once every commit left is
// uninteresting and slop more have been taken past the last interesting
// one's date.
func (w *revWalk) limitList(list []*wcommit) ([]*wcommit, error) {
	var out []*wcommit
	left := slop
	date := int64(1<<63 - 1)
	var cache *wcommit
	for len(list) > 0 {
		c := list[0]
		list = list[1:]
		if c == cache {
			cache = nil
		}
		var err error
		if list, err = w.processParents(c, list); err != nil {
			return nil, err
		}
		if c.flags&wUninteresting != 0 {
			markParentsUninteresting(c)
			if left = stillInteresting(list, date, left, &cache); left > 0 {
				continue
			}
			break
		}
		date = c.date
		out = append(out, c)
	}
	return out, nil
}

func stillInteresting(list []*wcommit, date int64, left int, cache **wcommit) int {
	if len(list) == 0 {
		return 0
	}
	if date <= list[0].date {
		return slop
	}
	if !everybodyUninteresting(list, cache) {
		return slop
	}
	return left - 1
}

func everybodyUninteresting(list []*wcommit, cache **wcommit) bool {
	if *cache != nil && (*cache).flags&wUninteresting == 0 {
		return false
	}
	for _, c := range list {
		if c.flags&wUninteresting == 0 {
			*cache = c
			return false
		}
	}
	return true
}

// processParents queues c's parents by date, each once, passing on c's
// side, or its uninteresting mark to every parsed ancestor.
func (w *revWalk) processParents(c *wcommit, list []*wcommit) ([]*wcommit, error) {
	if c.flags&wAdded != 0 {
		return list, nil
	}
	c.flags |= wAdded
	if c.flags&wUninteresting != 0 {
		for _, p := range c.parents {
			p.flags |= wUninteresting
			if w.parse(p) != nil {
				continue // git parses these gently: a missing one is skipped
			}
			if len(p.parents) > 0 {
				markParentsUninteresting(p)
			}
			if p.flags&wSeen != 0 {
				continue
			}
			p.flags |= wSeen
			list = byDate(list, p)
		}
		return list, nil
	}
	pass := c.flags & wLeft
	for _, p := range c.parents {
		if err := w.parse(p); err != nil {
			return nil, err
		}
		p.flags |= pass
		if p.flags&wSeen == 0 {
			p.flags |= wSeen
			list = byDate(list, p)
		}
	}
	return list, nil
}
