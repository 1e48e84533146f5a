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

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
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
	return graphFile([]chunk{
		{"OIDF", fanout(0x00, 1)},
		{"OIDL", make([]byte, 20)},
		{"CDAT", cdat(0x70000000, 0x70000000, 1, 0x01020304)},
		{"GDA2", []byte{0, 0, 0, 9}},
	})
}

type chunk struct {
	id   string
	data []byte
}

// graphFile lays chunks out as a version 1 SHA-1 commit-graph.
func graphFile(chunks []chunk) []byte {
	b := append([]byte("CGPH"), 1, 1, byte(len(chunks)), 0)
	at := uint64(8 + (len(chunks)+1)*12)
	for _, c := range chunks {
		b = append(append(b, c.id...), be64(at)...)
		at += uint64(len(c.data))
	}
	b = append(append(b, 0, 0, 0, 0), be64(at)...)
	for _, c := range chunks {
		b = append(b, c.data...)
	}
	return b
}

// fanout is a fan-out of n commits whose ids all start with first.
func fanout(first byte, n uint32) []byte {
	var b []byte
	for i := range 256 {
		v := uint32(0)
		if i >= int(first) {
			v = n
		}
		b = append(b, be32(v)...)
	}
	return b
}

// cdat is one commit's data: a tree, two parent fields, its level and date.
func cdat(p1, p2, level, date uint32) []byte {
	b := append(make([]byte, 20), be32(p1)...)
	b = append(b, be32(p2)...)
	b = append(b, be32(level<<2)...)
	return append(b, be32(date)...)
}

func be32(v uint32) []byte { return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }

func be64(v uint64) []byte { return append(be32(uint32(v>>32)), be32(uint32(v))...) }

// A file that fails a check of its structure is refused whole; one at the
// edge of each check is read.
func TestACorruptGraphIsRefusedAndOneAtEveryEdgeIsRead(t *testing.T) {
	ok := minimal()
	with := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), ok...)) }
	tests := []struct {
		name string
		file []byte
		read bool
	}{
		{"a graph of one commit", ok, true},
		{"cut inside the header", ok[:7], false},
		{"another signature", with(func(b []byte) []byte { b[0] = 'X'; return b }), false},
		{"version 2", with(func(b []byte) []byte { b[4] = 2; return b }), false},
		{"a SHA-256 graph", with(func(b []byte) []byte { b[5] = 2; return b }), false},
		{"a chunk table cut short", ok[:8+5*12-1], false},
		{"a chunk table of exactly its entries", graphFile(nil), false}, // no fan-out
		{"a chunk past the file's end", ok[:len(ok)-1], false},
		{"a chunk that ends before it starts", with(func(b []byte) []byte { b[8+12+11] = 0; return b }), false},
		{"a fan-out that goes down", graphFile([]chunk{{"OIDF", append(fanout(0, 1)[:1020], 0, 0, 0, 0)}, {"OIDL", make([]byte, 20)}, {"CDAT", cdat(0x70000000, 0x70000000, 1, 1)}}), false},
		{"fewer ids than the fan-out counts", graphFile([]chunk{{"OIDF", fanout(0, 2)}, {"OIDL", make([]byte, 20)}, {"CDAT", cdat(0x70000000, 0x70000000, 1, 1)}}), false},
		{"less data than the fan-out counts", graphFile([]chunk{{"OIDF", fanout(0, 1)}, {"OIDL", make([]byte, 20)}, {"CDAT", make([]byte, 35)}}), false},
	}
	for _, tt := range tests {
		if _, err := parse(tt.file, 0); (err == nil) != tt.read {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := parse(ok, noParent-1); err == nil {
		t.Error("a layer whose commits reach the no-parent mark was read")
	}
	if _, err := parse(ok, noParent-2); err != nil {
		t.Errorf("a layer just under the no-parent mark: %v", err)
	}
	p, _ := parse(graphFile([]chunk{{"OIDF", fanout(0, 1)}, {"OIDL", make([]byte, 20)}, {"CDAT", cdat(0x70000000, 0x70000000, 1, 1)}, {"GDA2", []byte{0, 0, 9}}}), 0)
	if g := finish([]*layer{p.layer}, true); g.Corrected || !g.Levels {
		t.Errorf("a generation chunk of the wrong size is used: corrected %v, levels %v", g.Corrected, g.Levels)
	}
	p, _ = parse(graphFile([]chunk{{"OIDF", fanout(0, 1)}, {"OIDL", make([]byte, 20)}, {"CDAT", cdat(0x70000000, 0x70000000, 0, 1)}}), 0)
	if g := finish([]*layer{p.layer}, true); g.Levels {
		t.Error("a graph whose first commit has no level says it has levels")
	}
}

// A commit's parents are read within its layer, its extra edges within
// their list and its generation's overflow within its chunk; a position
// past any of them is refused.
func TestACommitsFieldsAreReadWithinTheirChunks(t *testing.T) {
	two := func(p1, p2 uint32, extra ...chunk) *Graph {
		ids := append(make([]byte, 19), 1) // 00…01
		ids = append(ids, append(make([]byte, 19), 2)...)
		chunks := append([]chunk{{"OIDF", fanout(0, 2)}, {"OIDL", ids},
			{"CDAT", append(cdat(0x70000000, 0x70000000, 1, 5), cdat(p1, p2, 2, 6)...)}}, extra...)
		p, err := parse(graphFile(chunks), 0)
		if err != nil {
			t.Fatal(err)
		}
		return finish([]*layer{p.layer}, true)
	}
	tests := []struct {
		name    string
		g       *Graph
		parents int
		ok      bool
	}{
		{"a parent in the layer", two(0, 0x70000000), 1, true},
		{"a parent at the layer's end", two(2, 0x70000000), 0, false},
		{"a second parent at the layer's end", two(0, 2), 0, false},
		{"an octopus's edges, the last flagged", two(0, 0x80000000, chunk{"EDGE", append(be32(0), be32(0x80000001)...)}), 3, true},
		{"edges that never end", two(0, 0x80000000, chunk{"EDGE", be32(0)}), 0, false},
		{"edges starting past their list", two(0, 0x80000002, chunk{"EDGE", append(be32(0), be32(0x80000001)...)}), 0, false},
	}
	for _, tt := range tests {
		c, err := tt.g.Commit(1)
		if (err == nil) != tt.ok || tt.ok && len(c.Parents) != tt.parents {
			t.Errorf("%s: %+v, %v", tt.name, c, err)
		}
	}
	gen := func(gda2 []byte, gdo2 []byte) (Commit, error) {
		chunks := []chunk{{"OIDF", fanout(0, 1)}, {"OIDL", make([]byte, 20)}, {"CDAT", cdat(0x70000000, 0x70000000, 1, 100)}, {"GDA2", gda2}}
		if gdo2 != nil {
			chunks = append(chunks, chunk{"GDO2", gdo2})
		}
		p, err := parse(graphFile(chunks), 0)
		if err != nil {
			t.Fatal(err)
		}
		return finish([]*layer{p.layer}, true).Commit(0)
	}
	if c, err := gen(be32(7), nil); err != nil || c.Generation != 107 {
		t.Errorf("an offset: %+v, %v", c, err)
	}
	if c, err := gen(be32(0x80000001), append(be64(1), be64(1<<40)...)); err != nil || c.Generation != 100+1<<40 {
		t.Errorf("an overflowed offset, the last in its chunk: %+v, %v", c, err)
	}
	if _, err := gen(be32(0x80000002), append(be64(1), be64(1<<40)...)); err == nil {
		t.Error("an overflow past its chunk was read")
	}
	if _, err := (&Graph{layers: []*layer{}}).Commit(0); err == nil {
		t.Error("a position in no layer was read")
	}
}

// A layer of a chain must name the layer below it as its base: one that
// names another is not read, nor anything above it, as git reads a chain.
func TestALayerThatDoesNotFollowTheOneBelowIsNotRead(t *testing.T) {
	baseName, topName := strings.Repeat("aa", 20), strings.Repeat("bb", 20)
	top := func(base string) []byte {
		h := plumbing.NewHash(base)
		return graphFile([]chunk{{"OIDF", fanout(1, 1)}, {"OIDL", append([]byte{1}, make([]byte, 19)...)},
			{"CDAT", cdat(0, 0x70000000, 2, 9)}, {"BASE", h[:]}})
	}
	for base, layers := range map[string]int{baseName: 2, strings.Repeat("cc", 20): 1} {
		objects := t.TempDir()
		dir := filepath.Join(objects, "info", "commit-graphs")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "commit-graph-chain"), []byte(baseName+"\n"+topName+"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "graph-"+baseName+".graph"), minimal(), 0o644)
		os.WriteFile(filepath.Join(dir, "graph-"+topName+".graph"), top(base), 0o644)
		g, err := Open(objects, true)
		if g == nil || len(g.layers) != layers {
			t.Errorf("a top layer naming %s as its base: %v (%v), want %d layers", base[:4], g, err, layers)
			continue
		}
		if layers == 2 {
			c, err := g.Commit(1)
			if err != nil || len(c.Parents) != 1 || c.Parents[0] != 0 {
				t.Errorf("the top layer's commit: %+v, %v", c, err)
			}
		}
		g.Close()
	}
}

// A graph of no commits has no levels; a graph never opened closes.
func TestAnEmptyGraphHasNoLevelsAndANilGraphCloses(t *testing.T) {
	p, err := parse(graphFile([]chunk{{"OIDF", fanout(0, 0)}, {"OIDL", nil}, {"CDAT", nil}}), 0)
	if err != nil {
		t.Fatal(err)
	}
	if g := finish([]*layer{p.layer}, true); g.Levels {
		t.Error("an empty graph has levels")
	}
	var none *Graph
	if err := none.Close(); err != nil {
		t.Error(err)
	}
}

// Where a file cannot be mapped it is read whole, the same bytes.
func TestAGraphReadWithoutAMappingIsTheSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "commit-graph")
	os.WriteFile(path, minimal(), 0o644)
	m, err := rawfile.OpenMapped(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b, err := readAll(m)
	if err != nil || string(b) != string(minimal()) {
		t.Errorf("read %d bytes, %v", len(b), err)
	}
}

// Every commit of a graph of thousands is found at the place that reads
// back its id, and ids it does not hold (one bit away from those it does)
// are not found.
func TestEveryCommitOfALargeGraphIsFoundAndNoOther(t *testing.T) {
	dir, git := history(t)
	var in strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&in, "commit refs/heads/many\ncommitter t <t@example.com> %d +0000\ndata 2\n%d\n\n", 1_700_000_000+i, i%10)
	}
	cmd := exec.Command("git", "-C", dir, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	git("commit-graph", "write", "--reachable")
	g, err := Open(filepath.Join(dir, ".git", "objects"), true)
	if err != nil || g == nil {
		t.Fatal(g, err)
	}
	defer g.Close()
	ids := strings.Fields(git("rev-list", "--all"))
	if len(ids) < 3000 {
		t.Fatalf("%d commits", len(ids))
	}
	for _, s := range ids {
		h := plumbing.NewHash(s)
		pos, ok := g.Lookup(h)
		if back, _ := g.Hash(pos); !ok || back != h {
			t.Fatalf("%s: found %v at %d, which reads back %s", h, ok, pos, back)
		}
		h[19] ^= 1
		if _, ok := g.Lookup(h); ok {
			t.Fatalf("%s, not in the graph, was found", h)
		}
	}
}
