package gitdiag

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
)

// dagShape is how a random history is made.
type dagShape struct {
	commits   int
	merges    float64 // chance a commit has a second parent
	octopus   float64 // chance a merge has a third
	roots     float64 // chance a commit starts a new history
	sameTime  float64 // chance a commit has its parent's date
	skew      float64 // chance a commit is dated before its parent
	skewBy    int     // by up to this many seconds (100,000 unless set)
	branchOff int     // how far back a parent may be
}

// randomHistory makes a history of the shape, in the order made.
func randomHistory(t *testing.T, f *fixture, rng *rand.Rand, s dagShape) []plumbing.Hash {
	t.Helper()
	return importHistory(t, f, randomSpecs(rng, s))
}

// randomSpecs is a history of the shape, in the order made.
func randomSpecs(rng *rand.Rand, s dagShape) []commitSpec {
	date := int64(1_600_000_000)
	var specs []commitSpec
	for i := range s.commits {
		var parents []int
		if i > 0 && rng.Float64() >= s.roots {
			parents = append(parents, i-1-rng.IntN(min(i, s.branchOff)))
			if rng.Float64() < s.merges && i > 1 {
				parents = append(parents, rng.IntN(i))
				if rng.Float64() < s.octopus {
					parents = append(parents, rng.IntN(i))
				}
			}
		}
		switch r := rng.Float64(); {
		case r < s.sameTime:
		case r < s.sameTime+s.skew:
			by := s.skewBy
			if by == 0 {
				by = 100_000
			}
			date -= int64(rng.IntN(by))
		default:
			date += int64(1 + rng.IntN(600))
		}
		specs = append(specs, commitSpec{date, parents})
	}
	return specs
}

// commitSpec is a commit to make: its date and its parents, by their
// places in the list.
type commitSpec struct {
	date    int64
	parents []int
}

// importHistory writes the commits with git fast-import (one process
// whatever their number) and returns their ids in the list's order.
func importHistory(t *testing.T, f *fixture, specs []commitSpec) []plumbing.Hash {
	t.Helper()
	return importHistoryTagged(t, f, specs, false)
}

// importHistoryTagged is importHistory, each commit tagged when tag is set
// (so that a repack keeps them all).
func importHistoryTagged(t *testing.T, f *fixture, specs []commitSpec, tag bool) []plumbing.Hash {
	t.Helper()
	var in strings.Builder
	for i, c := range specs {
		if len(c.parents) == 0 {
			in.WriteString("reset refs/heads/tmp\n")
		}
		fmt.Fprintf(&in, "commit refs/heads/tmp\nmark :%d\ncommitter t <t@example.com> %d +0000\ndata 2\n%d\n", i+1, c.date, i%100)
		seen := map[int]bool{}
		for k, p := range c.parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			if k == 0 {
				fmt.Fprintf(&in, "from :%d\n", p+1)
			} else {
				fmt.Fprintf(&in, "merge :%d\n", p+1)
			}
		}
		in.WriteString("\n")
		if tag {
			fmt.Fprintf(&in, "reset refs/tags/c%d\nfrom :%d\n\n", i, i+1)
		}
	}
	marks := filepath.Join(t.TempDir(), "marks")
	cmd := exec.Command("git", "fast-import", "--quiet", "--export-marks="+marks)
	cmd.Dir = f.dir
	cmd.Stdin = strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	b, err := os.ReadFile(marks)
	if err != nil {
		t.Fatal(err)
	}
	hashes := make([]plumbing.Hash, len(specs))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var n int
		var h string
		fmt.Sscanf(line, ":%d %s", &n, &h)
		hashes[n-1] = plumbing.NewHash(h)
	}
	return hashes
}

// graphModes are the commit-graphs a repository may have, each changing
// the order in which git walks (by corrected date or by date) and what it
// reads.
var graphModes = []struct {
	name  string
	write func(f *fixture, all []plumbing.Hash)
}{
	{"no commit-graph", func(*fixture, []plumbing.Hash) {}},
	{"a commit-graph of corrected dates", func(f *fixture, all []plumbing.Hash) { writeGraph(f, all, "commit-graph", "write") }},
	{"a commit-graph of topological levels", func(f *fixture, all []plumbing.Hash) {
		writeGraph(f, all, "-c", "commitGraph.generationVersion=1", "commit-graph", "write")
	}},
	{"a commit-graph of the older half, in a chain", func(f *fixture, all []plumbing.Hash) {
		writeGraph(f, all[:len(all)/2], "commit-graph", "write", "--split=no-merge")
	}},
}

func writeGraph(f *fixture, commits []plumbing.Hash, args ...string) {
	var in strings.Builder
	for _, h := range commits {
		in.WriteString(h.String() + "\n")
	}
	cmd := exec.Command("git", append(args, "--stdin-commits")...)
	cmd.Dir = f.dir
	cmd.Stdin = strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		f.t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

// The counts of a...b, and the merge bases, are git's on every history: merges and octopus
// merges, several roots, commits made within one second, commits dated
// before their parents (where git's own stop rule gives counts that are
// not the set difference, and git's counts are what a user compares
// with), with and without each kind of commit-graph.
func TestLeftRightCountsAreGitsOnRandomHistories(t *testing.T) {
	shapes := []dagShape{
		{commits: 60, merges: 0.2, octopus: 0.2, roots: 0.02, sameTime: 0.3, skew: 0.05, branchOff: 8},
		{commits: 200, merges: 0.1, roots: 0, sameTime: 0.6, skew: 0, branchOff: 4},
		{commits: 200, merges: 0.15, roots: 0.01, sameTime: 0.1, skew: 0.2, branchOff: 20},
		{commits: 400, merges: 0.05, roots: 0, sameTime: 0.2, skew: 0.02, branchOff: 50},
		{commits: 300, merges: 0.2, roots: 0, sameTime: 0.5, skew: 0.05, skewBy: 10_000_000, branchOff: 5},
	}
	for si, shape := range shapes {
		for _, mode := range graphModes {
			t.Run(fmt.Sprintf("shape %d, %s", si, mode.name), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(si), 38))
				f := newFixture(t)
				all := randomHistory(t, f, rng, shape)
				mode.write(f, all)
				r, err := Open(f.dir)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				for range 12 {
					a, b := all[rng.IntN(len(all))], all[rng.IntN(len(all))]
					want := strings.Join(strings.Fields(f.git("rev-list", "--left-right", "--count", a.String()+"..."+b.String())), " ")
					left, right, err := r.AheadBehind(context.Background(), a, b)
					if got := fmt.Sprintf("%d %d", left, right); err != nil || got != want {
						t.Errorf("%s...%s: %s (%v), git says %s", a, b, got, err, want)
					}
					wantBases := strings.Fields(f.gitMayFailOutput("merge-base", "--all", a.String(), b.String()))
					if got, err := mergeBasesOf(r, a, b); err != nil || !slices.Equal(got, wantBases) {
						t.Errorf("merge bases of %s and %s: %v (%v), git says %v", a, b, got, err, wantBases)
					}
				}
			})
		}
	}
}

// mergeBasesOf is every best common ancestor of a and b, as `git
// merge-base --all` lists them (the diff stat starts from the first).
func mergeBasesOf(r *Repo, a, b plumbing.Hash) ([]string, error) {
	w, err := r.revWalk(context.Background())
	if err != nil {
		return nil, err
	}
	defer w.close()
	bases, err := w.mergeBases(w.lookup(a), w.lookup(b))
	var out []string
	for _, c := range bases {
		out = append(out, c.hash.String())
	}
	return out, err
}

// Where git's stop rule is not exact, the counts are still git's: a merge
// brings in X, an ancestor of the merge base through more than five
// commits dated long before X (rebased or imported work). git stops
// before its "uninteresting" mark reaches X, and counts X and the commits
// under it as ahead; a user compares with git, so they are counted too.
// With a graph of corrected dates git walks the series in the merge-base
// walk already, and its counts are exact: so are these.
func TestLeftRightCountsAreGitsWhereGitsStopRuleIsNotExact(t *testing.T) {
	inexact := 0
	defer func() {
		if inexact == 0 {
			t.Errorf("git counts the set difference in every mode: the history no longer tests git's stop rule")
		}
	}()
	const T = 1_600_000_000
	specs := []commitSpec{
		{T - 1000, nil},     // 0: R
		{T - 500, []int{0}}, // 1: W
		{T, []int{1}},       // 2: X
	}
	for i := range 8 { // 3..10: a series dated before X
		specs = append(specs, commitSpec{T - 1_000_000 + int64(i), []int{len(specs) - 1}})
	}
	specs = append(specs,
		commitSpec{T + 100, []int{10}},    // 11: the merge base
		commitSpec{T + 200, []int{11}},    // 12: upstream
		commitSpec{T + 300, []int{11, 2}}, // 13: HEAD, a merge of X
	)
	for _, mode := range graphModes {
		t.Run(mode.name, func(t *testing.T) {
			f := newFixture(t)
			all := importHistory(t, f, specs)
			mode.write(f, all)
			head, up := all[13], all[12]
			want := strings.Join(strings.Fields(f.git("rev-list", "--left-right", "--count", head.String()+"..."+up.String())), " ")
			if want != "1 1" {
				inexact++
			}
			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			left, right, err := r.AheadBehind(context.Background(), head, up)
			if got := fmt.Sprintf("%d %d", left, right); err != nil || got != want {
				t.Errorf("%s (%v), git says %s", got, err, want)
			}
		})
	}
}

// The walk reads ahead on a second goroutine, which stops when the walk
// does: a hook's runs leave nothing running.
func TestTheWalkLeavesNoGoroutineRunning(t *testing.T) {
	f := newFixture(t)
	all := randomHistory(t, f, rand.New(rand.NewPCG(1, 2)), dagShape{commits: 300, merges: 0.2, sameTime: 0.2, branchOff: 10})
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	before := runtime.NumGoroutine()
	for i := range 20 {
		if _, _, err := r.AheadBehind(context.Background(), all[len(all)-1-i], all[i*10]); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the walks, %d before", n, before)
	}
}

// In a partial clone an object the clone lacks is said to be one git would
// fetch from its promisor remote, not merely "not found".
func TestAnObjectAPartialCloneLacksIsSaidToBeFetchable(t *testing.T) {
	src := newFixture(t)
	os.WriteFile(filepath.Join(src.dir, "f.txt"), []byte("version 1\n"), 0o644)
	src.git("add", "f.txt")
	src.git("commit", "-qm", "one")
	old := plumbing.NewHash(strings.TrimSpace(src.git("rev-parse", "HEAD:f.txt")))
	os.WriteFile(filepath.Join(src.dir, "f.txt"), []byte("version 2\n"), 0o644)
	src.git("commit", "-qam", "two")
	src.git("config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(t.TempDir(), "partial")
	src.git("clone", "-q", "--filter=blob:none", "file://"+src.dir, dst)
	store := openStore(t, dst)
	if _, _, err := store.Read(old); err == nil || !strings.Contains(err.Error(), "partial clone; git would fetch the object from origin") {
		t.Errorf("a blob the partial clone lacks: %v", err)
	}
	whole := openStore(t, src.dir)
	if _, _, err := whole.Read(plumbing.NewHash(strings.Repeat("ab", 20))); err == nil || strings.Contains(err.Error(), "partial") {
		t.Errorf("a whole clone's missing object: %v", err)
	}
}

// A detached HEAD is named with git's automatic abbreviation: 7 digits in
// a small repository, more once it holds enough objects (here 20,000
// blobs, where git uses 8), as the log lines beside it are.
func TestADetachedHeadIsAbbreviatedAsGitDoes(t *testing.T) {
	f := newFixture(t)
	var in strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n%d\n", i+1, len(fmt.Sprint(i))+1, i)
	}
	in.WriteString("commit refs/heads/main\ncommitter t <t@example.com> 1600000000 +0000\ndata 2\nm\nM 100644 :1 f\n\n")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = f.dir, strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	f.git("checkout", "-q", "--detach", "main")
	short := strings.TrimSpace(f.git("rev-parse", "--short", "HEAD"))
	if len(short) <= 7 {
		t.Fatalf("git abbreviates to %q: the repository no longer tests a longer abbreviation", short)
	}
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h, err := r.Head(); err != nil || h.String() != "(detached HEAD at "+short+")" || h.Short != short {
		t.Errorf("got %q (%q), %v; git abbreviates to %s", h.String(), h.Short, err, short)
	}
}

// The repository may be closed as soon as a walk returns: the goroutine
// reading ahead has stopped by then, and reads nothing from the unmapped
// packs (it faulted and killed the process).
func TestARepositoryClosedRightAfterAWalkIsNotReadAgain(t *testing.T) {
	f := newFixture(t)
	all := randomHistory(t, f, rand.New(rand.NewPCG(3, 4)), dagShape{commits: 2000, merges: 0.3, sameTime: 0.1, branchOff: 40})
	for i := range 30 {
		r, err := Open(f.dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := r.AheadBehind(context.Background(), all[len(all)-1-i], all[i*20]); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
}

// A walk given a context that has ended stops with its error, whatever the
// history's size: it checks every 256 commits read.
func TestAWalkStopsWhenItsContextEnds(t *testing.T) {
	f := newFixture(t)
	all := randomHistory(t, f, rand.New(rand.NewPCG(9, 10)), dagShape{commits: 1500, branchOff: 1})
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.AheadBehind(ctx, all[len(all)-1], all[0]); !errors.Is(err, context.Canceled) {
		t.Errorf("a walk of 1,500 commits with its context ended: %v", err)
	}
	if l, rr, err := r.AheadBehind(context.Background(), all[len(all)-1], all[0]); err != nil || l != 1499 || rr != 0 {
		t.Errorf("the same walk, not cut: %d %d, %v", l, rr, err)
	}
}

// A commit goes after every commit as new as it, as git's
// commit_list_insert_by_date puts it: among equal dates, the first queued
// is taken first, which git's stop rule depends on.
func TestACommitIsQueuedAfterTheCommitsAsNewAsIt(t *testing.T) {
	c := func(name string, date int64) *wcommit {
		return &wcommit{hash: plumbing.NewHash(strings.Repeat(name, 40)), date: date}
	}
	a, b, d, e := c("a", 5), c("b", 3), c("d", 5), c("e", 3)
	var list []*wcommit
	for _, x := range []*wcommit{a, b, d, e, c("f", 9), c("0", 1)} {
		list = byDate(list, x)
	}
	var got []byte
	for _, x := range list {
		got = append(got, x.hash.String()[0])
	}
	if string(got) != "fadbe0" {
		t.Errorf("queued %s, want fadbe0", got)
	}
}

// The walk reads the commits git reads, no more and no fewer: git's trace
// of its pack reads (GIT_TRACE_PACK_ACCESS, on a pack without deltas, so
// that a read is a commit) is compared with the commits the walk parsed,
// on histories of equal and skewed dates, where the order of the walk
// decides where it stops; and with the older half in a commit-graph, where
// neither reads those from the pack, and which of git's two ways of
// removing redundant merge bases runs decides what is read above them.
func TestTheWalkReadsTheCommitsGitReads(t *testing.T) {
	shapes := []dagShape{
		{commits: 300, merges: 0.2, octopus: 0.1, sameTime: 0.5, skew: 0.02, branchOff: 6},
		{commits: 300, merges: 0.3, sameTime: 0.2, skew: 0.05, skewBy: 10_000_000, branchOff: 4},
		{commits: 400, merges: 0.1, sameTime: 0.7, branchOff: 12},
	}
	for si, shape := range shapes {
		for _, inGraph := range []int{0, shape.commits / 2} {
			t.Run(fmt.Sprintf("shape %d, %d commits in a graph", si, inGraph), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(si), 99))
				specs := randomSpecs(rng, shape)
				var pairs [][2]int
				for range 12 {
					// tips from the newer half, whose reads are compared
					n := len(specs) / 2
					pairs = append(pairs, [2]int{n + rng.IntN(n), n + rng.IntN(n)})
				}
				walkReadsWhatGitReads(t, specs, inGraph, pairs)
			})
		}
	}
	// Merge bases made by a criss-cross merge above a line of commits the
	// graph does not hold: git removes the redundant ones without
	// generations (a walk that stops where both sides meet), not with them
	// (which would walk the whole line).
	crissCross := []commitSpec{{100, nil}}
	for i := range 6 {
		crissCross = append(crissCross, commitSpec{int64(200 + i), []int{i}})
	}
	crissCross = append(crissCross, commitSpec{300, []int{6}}, commitSpec{301, []int{6}},
		commitSpec{400, []int{7, 8}}, commitSpec{401, []int{8, 7}})
	t.Run("a criss-cross merge, the root in a graph", func(t *testing.T) {
		walkReadsWhatGitReads(t, crissCross, 1, [][2]int{{9, 10}})
	})
	// A line of commits made within one second, HEAD one commit ahead:
	// git's stop rule never counts down (the last interesting date is not
	// newer than the next commit's), and the walk reads to the root.
	var sameSecond []commitSpec
	for i := range 30 {
		c := commitSpec{date: 100}
		if i > 0 {
			c.parents = []int{i - 1}
		}
		sameSecond = append(sameSecond, c)
	}
	t.Run("a line made within one second", func(t *testing.T) {
		walkReadsWhatGitReads(t, sameSecond, 0, [][2]int{{21, 20}})
	})
}

// walkReadsWhatGitReads compares the walk's reads of the history's pack
// with git's, for each pair of tips (places in specs), with the first
// inGraph commits in a commit-graph.
func walkReadsWhatGitReads(t *testing.T, specs []commitSpec, inGraph int, pairs [][2]int) {
	f := newFixture(t)
	all := importHistoryTagged(t, f, specs, true)
	f.git("repack", "-adfq", "--window=0")
	if inGraph > 0 {
		writeGraph(f, all[:inGraph], "commit-graph", "write")
	}
	offsets := map[string]plumbing.Hash{}
	packs, _ := filepath.Glob(filepath.Join(f.dir, ".git", "objects", "pack", "*.idx"))
	idx, _ := os.ReadFile(packs[0])
	cmd := exec.Command("git", "show-index")
	cmd.Stdin = strings.NewReader(string(idx))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		offsets[fields[0]] = plumbing.NewHash(fields[1])
	}
	for _, pair := range pairs {
		a, b := all[pair[0]], all[pair[1]]
		if a == b {
			continue
		}
		trace := filepath.Join(t.TempDir(), "trace")
		cmd := exec.Command("git", "rev-list", "--left-right", "--count", a.String()+"..."+b.String())
		cmd.Dir, cmd.Env = f.dir, append(os.Environ(), "GIT_TRACE_PACK_ACCESS="+trace)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		b2, _ := os.ReadFile(trace)
		gitRead := map[plumbing.Hash]bool{}
		for _, line := range strings.Split(strings.TrimSpace(string(b2)), "\n") {
			fields := strings.Fields(line)
			gitRead[offsets[fields[len(fields)-1]]] = true
		}
		r, err := Open(f.dir)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := r.revWalk(context.Background())
		left, right, err := w.leftRight(a, b)
		if err != nil {
			t.Fatal(err)
		}
		w.close()
		if got, want := fmt.Sprintf("%d %d", left, right), strings.Join(strings.Fields(string(out)), " "); got != want {
			t.Errorf("%s...%s: %s, git says %s", a, b, got, want)
		}
		var more, fewer int
		for h, c := range w.commits {
			if c.parsed && !c.inGraph && !gitRead[h] {
				more++
			}
		}
		if inGraph > 0 {
			// git reads the commits it is given from the pack to learn
			// their type; the walk finds them in the graph.
			delete(gitRead, a)
			delete(gitRead, b)
		}
		for h := range gitRead {
			if c := w.commits[h]; c == nil || !c.parsed || c.inGraph {
				fewer++
			}
		}
		if more+fewer > 0 {
			t.Errorf("%s...%s: %d commits read that git did not read, %d git read that were not (git read %d)", a, b, more, fewer, len(gitRead))
		}
		r.Close()
	}
}

// Of commits some of which reach others, remove_redundant keeps those no
// other one reaches, in their order: by painting (without generations) or
// by walking down to the lowest generation (with them). Checked against
// reachability computed plainly, over random histories held in memory.
func TestRedundantMergeBasesAreRemovedWithAndWithoutGenerations(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for round := range 400 {
		n := 8 + rng.IntN(40)
		commits := make([]*wcommit, n)
		for i := range commits {
			c := &wcommit{hash: plumbing.Hash{byte(i), byte(round)}, parsed: true, date: int64(1000 + i*10 - rng.IntN(30))}
			if i > 0 {
				for range 1 + rng.IntN(2) {
					p := commits[rng.IntN(i)]
					if !slices.Contains(c.parents, p) {
						c.parents = append(c.parents, p)
					}
				}
			}
			c.gen = 1
			for _, p := range c.parents {
				c.gen = max(c.gen, p.gen+1)
			}
			commits[i] = c
		}
		reaches := func(from, to *wcommit) bool {
			seen := map[*wcommit]bool{}
			stack := append([]*wcommit(nil), from.parents...)
			for len(stack) > 0 {
				c := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if c == to {
					return true
				}
				if !seen[c] {
					seen[c] = true
					stack = append(stack, c.parents...)
				}
			}
			return false
		}
		var array []*wcommit
		for _, i := range rng.Perm(n)[:2+rng.IntN(4)] {
			array = append(array, commits[i])
		}
		var want []*wcommit
		for _, c := range array {
			redundant := false
			for _, o := range array {
				if o != c && reaches(o, c) {
					redundant = true
				}
			}
			if !redundant {
				want = append(want, c)
			}
		}
		for name, remove := range map[string]func(*revWalk, []*wcommit) ([]*wcommit, error){
			"without generations": (*revWalk).removeRedundantNoGen, "with generations": (*revWalk).removeRedundantWithGen} {
			w := &revWalk{ctx: context.Background(), commits: map[plumbing.Hash]*wcommit{}}
			for _, c := range commits {
				c.flags = 0
				w.commits[c.hash] = c
			}
			got, err := remove(w, slices.Clone(array))
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("round %d, %s: kept %d of %d, want %d (%v)", round, name, len(got), len(array), len(want), err)
			}
			for _, c := range commits {
				if c.flags != 0 {
					t.Fatalf("round %d, %s: flags %b left on a commit", round, name, c.flags)
				}
			}
		}
	}
}

// openStore opens the repository in dir and its object store, both closed
// when the test ends.
func openStore(t *testing.T, dir string) *objects.Store {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	store, err := r.objects()
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// The merge-base walk takes commits in the order of git's prio_queue with
// compare_commits_by_gen_then_commit_date, or by date alone where git
// does not use generations: the highest generation, then the newest date,
// then the first put. Where it stops, and so which commits it reads,
// depends on that order.
func TestThePaintQueueTakesCommitsInGitsOrder(t *testing.T) {
	c := func(name string, gen uint64, date int64) *wcommit {
		return &wcommit{hash: plumbing.NewHash(strings.Repeat(name, 40)), gen: gen, date: date}
	}
	tests := []struct {
		name  string
		byGen bool
		put   []*wcommit
		want  string
	}{
		{"newest first", false, []*wcommit{c("a", 1, 10), c("b", 1, 30), c("d", 1, 20)}, "bda"},
		{"the first put first among equal dates", false, []*wcommit{c("a", 1, 10), c("b", 1, 10), c("d", 1, 10), c("e", 1, 10)}, "abde"},
		{"generations ignored by date", false, []*wcommit{c("a", 9, 10), c("b", 1, 30)}, "ba"},
		{"the highest generation first", true, []*wcommit{c("a", 1, 30), c("b", 9, 10), c("d", 5, 20)}, "bda"},
		{"by date among equal generations", true, []*wcommit{c("a", 4, 10), c("b", 4, 30), c("d", 4, 20)}, "bda"},
		{"the first put among equal generations and dates", true, []*wcommit{c("d", 4, 10), c("a", 4, 10), c("b", 4, 10)}, "dab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &paintQueue{byGen: tt.byGen}
			for _, x := range tt.put {
				q.put(x)
			}
			var got []byte
			for q.Len() > 0 {
				got = append(got, q.get().hash.String()[0])
			}
			if string(got) != tt.want {
				t.Errorf("taken %s, want %s", got, tt.want)
			}
		})
	}
}

// The queue's count of entries not stale, by which the walk stops, is the
// count git finds by looking at every entry, whatever puts, takes and
// paints came before, a commit queued twice included.
func TestThePaintQueueCountsTheEntriesNotStale(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	commits := make([]*wcommit, 6)
	for i := range commits {
		commits[i] = &wcommit{hash: plumbing.Hash{byte(i)}, date: int64(rng.IntN(3))}
	}
	q := &paintQueue{byGen: true}
	for step := range 2000 {
		c := commits[rng.IntN(len(commits))]
		switch r := rng.IntN(4); {
		case r == 0 && q.Len() > 0:
			q.get()
		case r == 1:
			q.paint(c, wStale)
		case r == 2:
			q.paint(c, wParent1)
		default:
			q.put(c)
		}
		want := 0
		for _, x := range q.items {
			if x.flags&wStale == 0 {
				want++
			}
		}
		if q.nonstale != want {
			t.Fatalf("step %d: the queue counts %d entries not stale, holds %d", step, q.nonstale, want)
		}
		if step%100 == 99 { // git clears the marks between walks
			q.clear()
			for _, x := range commits {
				x.flags = 0
			}
		}
	}
}

// synthetic is a commit made in memory: its generation (0: not in the
// graph) and its parents by name.
type synthetic struct {
	gen     uint64
	parents []string
}

// remove_redundant_with_gen walks no further than git does: it stops once
// one commit is left independent, and starts from no other parent (past
// that, commits the graph does not hold, of infinite generation, are
// below no bound), and once the lowest
// commit is found redundant it walks nothing below the next lowest. Here a
// commit it must not read is missing from the store: reading it fails.
func TestRemovingRedundantBasesWalksNoFurtherThanGit(t *testing.T) {
	tests := []struct {
		name string
		// each commit: its generation (0: not in the graph) and parents;
		// "missing" is never parsed
		commits map[string]synthetic
		array   []string
		want    []string
	}{
		{
			name: "the walk stops once one is left, above commits the graph does not hold",
			commits: map[string]synthetic{
				"r": {1, nil}, "p": {2, []string{"r"}}, "b": {3, []string{"p"}},
				"x": {0, []string{"b", "missing"}}, "a": {0, []string{"x"}},
			},
			array: []string{"a", "b"},
			want:  []string{"a"},
		},
		{
			name: "nothing below the next lowest once the lowest is found",
			commits: map[string]synthetic{
				"r": {1, nil}, "c": {2, []string{"r"}}, "y": {5, []string{"missing"}},
				"q": {9, []string{"r"}}, "b": {10, []string{"q"}},
				"x": {11, []string{"c", "y", "b"}}, "a": {12, []string{"x"}},
			},
			array: []string{"a", "b", "c"},
			want:  []string{"a"},
		},
		{
			name: "no walk from the other parents once one is left",
			commits: map[string]synthetic{
				"r": {1, nil}, "p": {2, []string{"r"}}, "b": {3, []string{"p"}},
				"x": {0, []string{"b"}}, "w": {0, []string{"missing"}}, "a": {0, []string{"w", "x"}},
			},
			array: []string{"a", "b"},
			want:  []string{"a"},
		},
	}
	store := openStore(t, newFixture(t).dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newRevWalk(context.Background(), store, nil)
			defer w.close()
			byName := map[string]*wcommit{}
			commit := func(name string) *wcommit {
				if byName[name] == nil {
					byName[name] = w.lookup(plumbing.NewHash(fmt.Sprintf("%040x", len(byName)+1)))
				}
				return byName[name]
			}
			for name, spec := range tt.commits {
				c := commit(name)
				c.parsed, c.gen, c.date = true, spec.gen, int64(spec.gen)
				if spec.gen == 0 {
					c.gen, c.date = infinity, 100
				}
				for _, p := range spec.parents {
					c.parents = append(c.parents, commit(p))
				}
			}
			var array, want []*wcommit
			for _, n := range tt.array {
				array = append(array, commit(n))
			}
			for _, n := range tt.want {
				want = append(want, commit(n))
			}
			got, err := w.removeRedundantWithGen(array)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("kept %d of %d, want %d (%v)", len(got), len(array), len(want), err)
			}
		})
	}
}

// The diff stat of a partial clone that lacks the blobs it needs says so,
// naming where git would fetch them, and is no failure to read git.
func TestAPartialClonesDiffStatSaysWhatGitWouldFetch(t *testing.T) {
	src := newFixture(t)
	os.WriteFile(filepath.Join(src.dir, "f.txt"), []byte("version 1\n"), 0o644)
	src.git("add", "f.txt")
	src.git("commit", "-qm", "one")
	src.git("config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(t.TempDir(), "partial")
	src.git("clone", "-q", "--filter=blob:none", "--no-checkout", "file://"+src.dir, dst)
	clone := &fixture{t: t, dir: dst}
	clone.git("-c", "protocol.file.allow=always", "checkout", "-q", "main")
	os.WriteFile(filepath.Join(src.dir, "f.txt"), []byte("version 2\n"), 0o644)
	src.git("commit", "-qam", "two")
	clone.git("fetch", "-q", "origin") // commits and trees; the new blob stays on the remote
	clone.git("reset", "-q", "--soft", "origin/main")
	clone.git("update-ref", "refs/remotes/origin/main", "HEAD~1") // HEAD is ahead by the commit whose blob is missing
	res := firstResult(Run(context.Background(), dst, []Probe{DiffStatUpstream}))
	if res.Err != nil || len(res.Lines) != 1 || !strings.Contains(res.Lines[0], "partial clone") || !strings.Contains(res.Lines[0], "from origin") {
		t.Errorf("the diff stat of a partial clone: %q, %v", res.Lines, res.Err)
	}
}
