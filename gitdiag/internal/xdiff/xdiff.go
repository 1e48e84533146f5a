package xdiff

import (
	"bytes"
	"hash/maphash"
)

// The constants of xdiff/xdiffi.c and xdiff/xprepare.c.
const (
	maxCostMin    = 256 // XDL_MAX_COST_MIN
	heurMinCost   = 256 // XDL_HEUR_MIN_COST
	snakeCnt      = 20  // XDL_SNAKE_CNT
	kHeur         = 4   // XDL_K_HEUR
	maxEqLimit    = 1024
	simscanWindow = 100 // XDL_SIMSCAN_WINDOW
	kpdisRun      = 4   // XDL_KPDIS_RUN
	lineMax       = int(^uint(0) >> 1)
)

// Counts returns how many lines git's diff of a and b adds and deletes, as
// `git diff --numstat` reports them with its default algorithm. A line is
// its bytes up to and including its newline: a last line without one
// differs from the same line with one, as in git.
func Counts(a, b []byte) (added, deleted int) { return counts(a, b, false) }

// CountsMinimal is Counts for diff.algorithm=minimal (--minimal): the
// same preparation, and a search that never settles for less than the
// shortest script.
func CountsMinimal(a, b []byte) (added, deleted int) { return counts(a, b, true) }

func counts(a, b []byte, minimal bool) (added, deleted int) {
	f1, f2, on1, on2 := classify(a, b)
	trimEnds(f1, f2)
	f1.cleanup(on2)
	f2.cleanup(on1)
	kv := newKV(len(f1.kept), len(f2.kept))
	recsCmp(f1, 0, len(f1.kept), f2, 0, len(f2.kept), kv, minimal)
	return count(f2.changed), count(f1.changed)
}

// file is one side: its lines as class numbers (equal lines, equal
// classes), the lines kept for the search after the cleanup (their
// classes, and which line each is), and the lines marked changed.
type file struct {
	class   []int
	changed []bool
	kept    []int
	index   []int
	start   int // first line after the common prefix
	end     int // last line before the common suffix
}

// classify splits both sides into lines and numbers them by content, and
// counts how often each class occurs on each side (xdl_prepare_ctx and
// xdl_classify_record: over the whole files). Classes are numbered in the
// order the lines first occur.
func classify(a, b []byte) (f1, f2 *file, on1, on2 []int) {
	t := newLineTable(lineCount(a) + lineCount(b))
	split := func(data []byte, on *[]int) *file {
		f := &file{class: make([]int, 0, lineCount(data))}
		for len(data) > 0 {
			n := bytes.IndexByte(data, '\n') + 1
			if n == 0 {
				n = len(data)
			}
			id, added := t.class(data[:n])
			if added {
				on1, on2 = append(on1, 0), append(on2, 0)
			}
			(*on)[id]++
			f.class = append(f.class, id)
			data = data[n:]
		}
		f.changed = make([]bool, len(f.class))
		return f
	}
	f1 = split(a, &on1)
	f2 = split(b, &on2)
	return f1, f2, on1, on2
}

// lineCount is the number of lines in data, the last one without a
// newline included.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// lineTable numbers lines by content, as xdiff's own hash of records
// does. A Go map keyed by the line made a string of every distinct line
// and hashed it again at each lookup: a fifth of the diff stat's time.
// Here a line is hashed once and compared where it lies.
type lineTable struct {
	seed   maphash.Seed
	slots  []int32  // class+1 of the line hashed here; 0: free
	hashes []uint64 // by class
	lines  [][]byte // by class
}

// newLineTable has room for n lines at most half full.
func newLineTable(n int) *lineTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return &lineTable{seed: maphash.MakeSeed(), slots: make([]int32, size)}
}

// class is line's class, and whether it is new.
func (t *lineTable) class(line []byte) (int, bool) {
	h := maphash.Bytes(t.seed, line)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			t.hashes = append(t.hashes, h)
			t.lines = append(t.lines, line)
			t.slots[i] = int32(len(t.lines))
			return len(t.lines) - 1, true
		}
		if c := int(s - 1); t.hashes[c] == h && bytes.Equal(t.lines[c], line) {
			return c, false
		}
	}
}

// trimEnds is xdl_trim_ends: the common prefix and suffix take no part.
func trimEnds(f1, f2 *file) {
	i, lim := 0, min(len(f1.class), len(f2.class))
	for i < lim && f1.class[i] == f2.class[i] {
		i++
	}
	f1.start, f2.start = i, i
	j := 0
	for lim -= i; j < lim && f1.class[len(f1.class)-1-j] == f2.class[len(f2.class)-1-j]; j++ {
	}
	f1.end, f2.end = len(f1.class)-j-1, len(f2.class)-j-1
}

// cleanup is xdl_cleanup_records: between the common ends, a line with no
// match on the other side is changed without search; one matched too
// often (at least about the square root of the line count) is changed
// too when it sits among such lines; the rest are kept for the search.
func (f *file) cleanup(other []int) {
	mlim := min(bogosqrt(len(f.class)), maxEqLimit)
	dis := make([]byte, len(f.class)+1)
	for i := f.start; i <= f.end; i++ {
		switch nm := other[f.class[i]]; {
		case nm == 0:
			dis[i] = 0
		case nm >= mlim:
			dis[i] = 2
		default:
			dis[i] = 1
		}
	}
	for i := f.start; i <= f.end; i++ {
		if dis[i] == 1 || dis[i] == 2 && !cleanMatch(dis, i, f.start, f.end) {
			f.index = append(f.index, i)
			f.kept = append(f.kept, f.class[i])
		} else {
			f.changed[i] = true
		}
	}
}

// cleanMatch is xdl_clean_mmatch: whether a line matched too often lies
// in a run of unmatched and too-often-matched lines, within a window,
// with unmatched ones on both sides and few kept ones.
func cleanMatch(dis []byte, i, s, e int) bool {
	if i-s > simscanWindow {
		s = i - simscanWindow
	}
	if e-i > simscanWindow {
		e = i + simscanWindow
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*kpdisRun < rpdis1+rdis1
}

// bogosqrt is xdl_bogosqrt, git's approximate square root.
func bogosqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

func count(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// kv holds the forward and backward furthest-reaching paths by diagonal,
// which may be negative: index d+base.
type kv struct {
	f, b   []int
	base   int
	mxcost int
}

func newKV(n1, n2 int) *kv {
	ndiags := n1 + n2 + 3
	return &kv{f: make([]int, ndiags+1), b: make([]int, ndiags+1), base: n2 + 1,
		mxcost: max(bogosqrt(ndiags), maxCostMin)}
}

// recsCmp is xdl_recs_cmp: shrink the box by its common ends, mark what
// is left on one side when the other is empty, else split and recurse.
func recsCmp(f1 *file, off1, lim1 int, f2 *file, off2, lim2 int, k *kv, needMin bool) {
	ha1, ha2 := f1.kept, f2.kept
	for off1 < lim1 && off2 < lim2 && ha1[off1] == ha2[off2] {
		off1, off2 = off1+1, off2+1
	}
	for off1 < lim1 && off2 < lim2 && ha1[lim1-1] == ha2[lim2-1] {
		lim1, lim2 = lim1-1, lim2-1
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			f2.changed[f2.index[off2]] = true
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			f1.changed[f1.index[off1]] = true
		}
	default:
		s := split(ha1, off1, lim1, ha2, off2, lim2, k, needMin)
		recsCmp(f1, off1, s.i1, f2, off2, s.i2, k, s.minLo)
		recsCmp(f1, s.i1, lim1, f2, s.i2, lim2, k, s.minHi)
	}
}

type splitPoint struct {
	i1, i2       int
	minLo, minHi bool
}
