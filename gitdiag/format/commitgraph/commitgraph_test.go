package commitgraph

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// history makes a repository whose commits have one, two and four parents
// (an octopus merge's parents past the second are in EDGE), dates that go
// backwards (the corrected date then differs from the date) and dates past
// 2038 (their high bits are kept beside the generation).
func history(t *testing.T) (dir string, git func(args ...string) string) {
	_, err := exec.LookPath("git")
	testenv.Need(t, "the git CLI (the oracle)", err)
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	commit := func(date int64, msg string) {
		t.Helper()
		cmd := exec.Command("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", msg)
		cmd.Env = append(os.Environ(), fmt.Sprintf("GIT_COMMITTER_DATE=@%d +0000", date), fmt.Sprintf("GIT_AUTHOR_DATE=@%d +0000", date))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("commit: %v\n%s", err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for i := range 6 {
		commit(1_700_000_000+int64(i)*100, fmt.Sprint("main ", i))
	}
	for _, b := range []string{"a", "b", "c"} {
		git("checkout", "-q", "-b", b, "main~3")
		commit(1_600_000_000, "skewed "+b) // older than its parent
		commit(5_000_000_000, "after 2038 "+b)
	}
	git("checkout", "-q", "main")
	cmd := exec.Command("git", "-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "merge", "-q", "--no-edit", "a", "b", "c")
	cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=1700001000 +0000")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("octopus: %v\n%s", err, out)
	}
	return dir, git
}

// truth is what git says of every commit: parents and date, with the
// generation numbers computed from their definitions.
type truth struct {
	parents map[plumbing.Hash][]plumbing.Hash
	when    map[plumbing.Hash]int64
	order   []plumbing.Hash // parents before children
}

func gitTruth(t *testing.T, git func(args ...string) string) truth {
	tr := truth{parents: map[plumbing.Hash][]plumbing.Hash{}, when: map[plumbing.Hash]int64{}}
	for _, line := range strings.Split(strings.TrimSpace(git("log", "--all", "--reverse", "--topo-order", "--format=%ct %H %P")), "\n") {
		f := strings.Fields(line)
		h := plumbing.NewHash(f[1])
		tr.when[h], _ = strconv.ParseInt(f[0], 10, 64)
		for _, p := range f[2:] {
			tr.parents[h] = append(tr.parents[h], plumbing.NewHash(p))
		}
		tr.order = append(tr.order, h)
	}
	return tr
}

// generations are the topological levels and corrected commit dates, by
// their definitions in gitformat-commit-graph(5).
func (tr truth) generations() (level, corrected map[plumbing.Hash]uint64) {
	level, corrected = map[plumbing.Hash]uint64{}, map[plumbing.Hash]uint64{}
	for _, h := range tr.order {
		level[h], corrected[h] = 1, uint64(tr.when[h])
		for _, p := range tr.parents[h] {
			level[h] = max(level[h], level[p]+1)
			corrected[h] = max(corrected[h], corrected[p]+1)
		}
	}
	return level, corrected
}

func TestEveryCommitReadsAsGitWroteIt(t *testing.T) {
	tests := []struct {
		name     string
		write    [][]string
		v2       bool
		inLayers int
	}{
		{"one file", [][]string{{"commit-graph", "write", "--reachable"}}, true, 1},
		{"one file of topological levels", [][]string{{"-c", "commitGraph.generationVersion=1", "commit-graph", "write", "--reachable"}}, false, 1},
		{"a chain of layers", [][]string{{"commit-graph", "write", "--split=no-merge", "--reachable"}}, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, git := history(t)
			if tt.inLayers == 2 {
				// The base layer holds main~3 and its ancestors; the layer
				// above, the rest, whose parents lie in both.
				cmd := exec.Command("git", "-C", dir, "commit-graph", "write", "--split=no-merge", "--stdin-commits")
				cmd.Stdin = strings.NewReader(git("rev-parse", "main~3"))
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
			}
			for _, args := range tt.write {
				git(args...)
			}
			g, err := Open(filepath.Join(dir, ".git", "objects"), true)
			if err != nil || g == nil {
				t.Fatalf("open: %v %v", g, err)
			}
			defer g.Close()
			if g.Corrected != tt.v2 || !g.Levels || len(g.layers) != tt.inLayers {
				t.Errorf("corrected dates %v in %d layers, want %v in %d", g.Corrected, len(g.layers), tt.v2, tt.inLayers)
			}
			tr := gitTruth(t, git)
			level, corrected := tr.generations()
			for _, h := range tr.order {
				pos, ok := g.Lookup(h)
				if !ok {
					t.Fatalf("%s not found", h)
				}
				if back, err := g.Hash(pos); err != nil || back != h {
					t.Errorf("position %d reads back as %s, %v", pos, back, err)
				}
				c, err := g.Commit(pos)
				if err != nil {
					t.Fatal(err)
				}
				var parents []plumbing.Hash
				for _, p := range c.Parents {
					ph, _ := g.Hash(p)
					parents = append(parents, ph)
				}
				if fmt.Sprint(parents) != fmt.Sprint(tr.parents[h]) || c.When != tr.when[h] {
					t.Errorf("%s: parents %v at %d, git says %v at %d", h, parents, c.When, tr.parents[h], tr.when[h])
				}
				want := level[h]
				if tt.v2 {
					want = corrected[h]
				}
				if c.Generation != want {
					t.Errorf("%s: generation %d, want %d", h, c.Generation, want)
				}
			}
			if _, ok := g.Lookup(plumbing.NewHash(strings.Repeat("ff", 20))); ok {
				t.Error("an id not in the graph was found")
			}
		})
	}
}

func TestARepositoryWithoutAGraphHasNone(t *testing.T) {
	dir, _ := history(t)
	if g, err := Open(filepath.Join(dir, ".git", "objects"), true); g != nil || err != nil {
		t.Errorf("got %v, %v", g, err)
	}
}

// Whatever a repository puts in the file, it is refused or read within its
// bounds, never read past.
func FuzzCorruptGraphIsRefusedOrReadWithinBounds(f *testing.F) {
	f.Add(minimal(), uint32(0))
	f.Fuzz(func(t *testing.T, b []byte, pos uint32) {
		p, err := parse(b, 0)
		if err != nil {
			return
		}
		g := finish([]*layer{p.layer}, true)
		for i := range min(p.n, 64) {
			g.Commit(Pos(i))
			g.Hash(Pos(i))
		}
		g.Commit(Pos(pos))
		g.Lookup(plumbing.Hash{})
	})
}

// minimal is a graph of one root commit, with its generation chunk.
func minimal() []byte {
	var b []byte
	b = append(b, "CGPH"...)
	b = append(b, 1, 1, 4, 0)
	start := uint64(8 + 5*12)
	chunks := []struct {
		id   string
		size uint64
	}{{"OIDF", 1024}, {"OIDL", 20}, {"CDAT", 36}, {"GDA2", 4}}
	at := start
	for _, c := range chunks {
		b = append(b, c.id...)
		b = appendU64(b, at)
		at += c.size
	}
	b = append(b, 0, 0, 0, 0)
	b = appendU64(b, at)
	for range 256 {
		b = append(b, 0, 0, 0, 1)
	}
	b = append(b, make([]byte, 20)...)                                  // the id
	b = append(b, make([]byte, 20)...)                                  // the tree
	b = append(b, 0x70, 0, 0, 0, 0x70, 0, 0, 0, 0, 0, 0, 4, 1, 2, 3, 4) // no parents, level 1
	return append(b, 0, 0, 0, 9)
}

func appendU64(b []byte, v uint64) []byte {
	for i := 7; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// A chain whose top layer is gone is read as far as it is whole, as git
// does; commitGraph.generationVersion=1 turns the corrected dates off.
func TestAChainIsReadAsFarAsItsLayersAreWhole(t *testing.T) {
	dir, git := history(t)
	cmd := exec.Command("git", "-C", dir, "commit-graph", "write", "--split=no-merge", "--stdin-commits")
	cmd.Stdin = strings.NewReader(git("rev-parse", "main~3"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	git("commit-graph", "write", "--split=no-merge", "--reachable")
	chain := filepath.Join(dir, ".git", "objects", "info", "commit-graphs")
	names := strings.Fields(string(mustRead(t, filepath.Join(chain, "commit-graph-chain"))))
	if len(names) != 2 {
		t.Fatalf("chain %q", names)
	}
	inBase, inTop := plumbing.NewHash(strings.TrimSpace(git("rev-parse", "main~3"))), plumbing.NewHash(strings.TrimSpace(git("rev-parse", "main")))
	os.Remove(filepath.Join(chain, "graph-"+names[1]+".graph"))
	g, err := Open(filepath.Join(dir, ".git", "objects"), false)
	if g == nil || len(g.layers) != 1 || g.Corrected {
		t.Fatalf("got %v (%v)", g, err)
	}
	if _, ok := g.Lookup(inBase); !ok {
		t.Error("the base layer's commit is not found")
	}
	if _, ok := g.Lookup(inTop); ok {
		t.Error("a commit of the missing layer is found")
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
