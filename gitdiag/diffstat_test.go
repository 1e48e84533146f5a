package gitdiag

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/session-hooks/session-hooks/gitdiag/internal/xdiff"
)

func TestDiffStatMatchesGit(t *testing.T) {
	tests := []struct {
		name     string
		upstream string // what the branch is compared with
		setup    func(f *fixture)
	}{
		{"configured upstream with scaling, long names and a binary file", "origin/main", func(f *fixture) {
			f.write("small.txt", "1\n2\n3\n")
			f.write("gone.txt", "bye\n")
			f.commit("base")
			f.trackOriginMain()
			f.write("small.txt", "1\ntwo\n3\n4\n")
			f.write("big.txt", strings.Repeat("line\n", 300))
			f.write("a/very/long/directory/name/that/goes/on/and/on/until/it/must/be/cut/file.txt", "x\n")
			f.write("image.bin", "\x00\x01\x02binary")
			os.Chmod(f.path("small.txt"), 0o755) // commit adds what is on disk
			f.git("rm", "-q", "gone.txt")
			f.commit("work")
		}},
		{"a mode-only change, deletions only, insertions only", "origin/main", func(f *fixture) {
			f.write("tool.sh", "echo\n")
			f.write("shrink.txt", "1\n2\n3\n")
			f.write("grow.txt", "1\n")
			f.commit("base")
			f.trackOriginMain()
			os.Chmod(f.path("tool.sh"), 0o755) // commit adds what is on disk
			f.write("shrink.txt", "1\n")
			f.write("grow.txt", "1\n2\n3\n")
			f.commit("work")
		}},
		{"only deletions in all: no insertions in the totals", "origin/main", func(f *fixture) {
			f.write("a.txt", "1\n2\n")
			f.commit("base")
			f.trackOriginMain()
			f.write("a.txt", "1\n")
			f.commit("work")
		}},
		{"a NUL past the first 8,000 bytes is text; one in the 8,000th is binary", "origin/main", func(f *fixture) {
			f.write("late.txt", "x\n")
			f.write("early.bin", "x\n")
			f.commit("base")
			f.trackOriginMain()
			f.write("late.txt", strings.Repeat("a", 8000)+"\x00\nb\n")
			f.write("early.bin", strings.Repeat("a", 7999)+"\x00\nb\n")
			f.commit("work")
		}},
		{"wide names and a long graph are scaled as git scales them", "origin/main", func(f *fixture) {
			f.write("a.txt", "1\n")
			f.commit("base")
			f.trackOriginMain()
			f.write(strings.Repeat("n", 90)+".txt", strings.Repeat("line\n", 500))
			f.write("a.txt", strings.Repeat("x\n", 120))
			f.commit("work")
		}},
		{"only a mode change: zero insertions and zero deletions", "origin/main", func(f *fixture) {
			f.write("tool.sh", "echo\n")
			f.commit("base")
			f.trackOriginMain()
			os.Chmod(f.path("tool.sh"), 0o755) // commit adds what is on disk
			f.commit("work")
		}},
		{"only a binary file changed: zero insertions and zero deletions", "origin/main", func(f *fixture) {
			f.write("blob.bin", "\x00one")
			f.commit("base")
			f.trackOriginMain()
			f.write("blob.bin", "\x00two")
			f.commit("work")
		}},
		{"as many insertions as deletions, scaled to an odd bar", "origin/main", func(f *fixture) {
			f.write("even.txt", strings.Repeat("old\n", 100))
			f.write("shrunk.txt", strings.Repeat("gone\n", 100))
			f.commit("base")
			f.trackOriginMain()
			f.write("big.txt", strings.Repeat("line\n", 500))
			f.write("even.txt", strings.Repeat("new\n", 100))
			f.write("shrunk.txt", strings.Repeat("kept\n", 10)) // fewer insertions than deletions, scaled
			f.commit("work")
		}},
		{"binary sizes widen the graph beside a long name", "origin/main", func(f *fixture) {
			f.write("blob.bin", "\x00"+strings.Repeat("b", 12345))
			f.write("a.txt", "1\n")
			f.commit("base")
			f.trackOriginMain()
			f.write("blob.bin", "\x00"+strings.Repeat("c", 67890))
			f.write(strings.Repeat("long-name-", 6)+".txt", "1\n2\n")
			f.commit("work")
		}},
		{"many small binary and text changes with long names", "origin/main", func(f *fixture) {
			f.write("a.txt", "1\n")
			f.commit("base")
			f.trackOriginMain()
			for i := range 4 {
				f.write(fmt.Sprintf("%s%d.txt", strings.Repeat("w", 70), i), strings.Repeat("x\n", 1+i*40))
			}
			f.write("z.bin", "\x00"+strings.Repeat("z", 1234567))
			f.commit("work")
		}},
		{"a graph of 25 beside a 53-character name: the graph is cut to its share, then the name", "origin/main", func(f *fixture) {
			f.write("a.txt", "1\n")
			f.commit("base")
			f.trackOriginMain()
			f.write(strings.Repeat("n", 49)+".txt", strings.Repeat("x\n", 25))
			f.commit("work")
		}},
		{"a graph of 10 beside a 66-character name: only the name is cut", "origin/main", func(f *fixture) {
			f.write("a.txt", "1\n")
			f.commit("base")
			f.trackOriginMain()
			f.write(strings.Repeat("m", 62)+".txt", strings.Repeat("x\n", 10))
			f.write("a.txt", "2\n") // 2 beside 10: the counts are two digits wide
			f.commit("work")
		}},
		{"a directory replaced by a file, and a file by a directory", "origin/main", func(f *fixture) {
			f.write("d/f.txt", "in a directory\n")
			f.write("e", "a file\n")
			f.commit("base")
			f.trackOriginMain()
			os.RemoveAll(f.path("d"))
			f.write("d", "now a file\n")
			os.Remove(f.path("e"))
			f.write("e/g.txt", "now a directory\n")
			f.commit("work")
		}},
		{"origin/HEAD when the branch has no upstream", "origin/trunk", func(f *fixture) {
			f.write("a.txt", "a\n")
			f.commit("base")
			f.git("update-ref", "refs/remotes/origin/trunk", "HEAD")
			f.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
			f.write("a.txt", "a\nb\n")
			f.commit("more")
		}},
		{"submodules bumped, added and removed, shown as git shows them", "origin/main", func(f *fixture) {
			link := func(path string, n int) {
				f.git("update-index", "--add", "--cacheinfo", fmt.Sprintf("160000,%040x,%s", n, path))
			}
			f.write("a.txt", "a\n")
			f.git("add", "a.txt")
			link("deps/sub", 1)
			link("old/sub", 2)
			f.git("commit", "-q", "-m", "base")
			f.trackOriginMain()
			link("deps/sub", 3)
			link("new/sub", 4)
			f.git("rm", "-q", "--cached", "old/sub")
			f.git("commit", "-q", "-m", "bump")
		}},
		{"upstream ahead of the merge base", "origin/main", func(f *fixture) {
			f.write("a.txt", "a\n")
			f.commit("base")
			f.git("checkout", "-q", "-b", "up")
			f.write("theirs.txt", "t\n")
			f.commit("upstream work")
			f.trackOriginMain()
			f.git("checkout", "-q", "main")
			f.write("mine.txt", "m\n")
			f.commit("my work")
		}},
		{"renames shown as git pairs them", "origin/main", func(f *fixture) {
			body := strings.Repeat("some line of text\n", 20)
			for _, p := range []string{"same.txt", "src/a/file.go", "lib/deep/x/y.c", "old/moved.md", "edit.txt",
				"gone.txt", "top.txt", "d/sub/f.txt", "caf\u00e9.txt", "short.txt", "longer.txt.orig", "d/f2.txt", "m/x/f"} {
				f.write(p, p+"\n"+body)
			}
			f.commit("base")
			f.trackOriginMain()
			for _, mv := range [][2]string{{"same.txt", "renamed.txt"}, {"src/a/file.go", "src/b/file.go"},
				{"lib/deep/x/y.c", "lib/x/y.c"}, {"old/moved.md", "new/place/moved.md"}, {"edit.txt", "edited.txt"},
				{"top.txt", "d/top.txt"}, {"d/sub/f.txt", "d/f.txt"}, {"caf\u00e9.txt", "cafe.txt"},
				{"short.txt", "short.txt.orig"}, {"longer.txt.orig", "longer.txt"}, // one name the start of the other
				{"d/f2.txt", "d/deeper/f2.txt"}, {"m/x/f", "m/y/f"}} { // into a subdirectory; prefix and suffix of one length
				os.MkdirAll(filepath.Join(f.dir, filepath.Dir(mv[1])), 0o755)
				f.git("mv", mv[0], mv[1])
			}
			f.write("edited.txt", "edit.txt\n"+body+"one more\n")
			f.git("rm", "-q", "gone.txt")
			f.write("unrelated.txt", "nothing like the others\n")
			f.commit("work")
		}},
		{"the diff attribute decides what is binary", "origin/main", func(f *fixture) {
			for _, p := range []string{"forced-text.dat", "plain.dat", "marked.txt", "driver.txt", "textual.txt", "python.txt",
				"sub/deep.txt", "gone.md", "moved/old.md"} {
				content := p + "\nline\nline two\n"
				if strings.HasSuffix(p, ".dat") {
					content = p + "\x00\nline\nline two\n" // binary by content
				}
				f.write(p, content)
			}
			f.write(".gitattributes", "*.dat diff\nplain.dat -diff\nmarked.txt binary\ndriver.txt diff=bin\n"+
				"textual.txt diff=txt\npython.txt diff=python\n*.md -diff\n")
			f.write("sub/.gitattributes", "deep.txt -diff\n")
			f.git("config", "diff.bin.binary", "true")
			f.git("config", "diff.txt.binary", "false")
			f.commit("base")
			f.trackOriginMain()
			for _, p := range []string{"forced-text.dat", "plain.dat", "marked.txt", "driver.txt", "textual.txt", "python.txt", "sub/deep.txt"} {
				f.write(p, p+"\nchanged\n")
			}
			f.git("rm", "-q", "gone.md")
			os.MkdirAll(filepath.Join(f.dir, "new"), 0o755)
			f.git("mv", "moved/old.md", "new/old.md")
			f.commit("work")
			// The work tree's attributes apply; unlike the status, a diff
			// between commits does not fall back to the index's copy.
			os.Remove(filepath.Join(f.dir, "sub", ".gitattributes"))
		}},
		{"no renames with diff.renames off", "origin/main", func(f *fixture) {
			f.write("a.txt", strings.Repeat("text\n", 10))
			f.commit("base")
			f.trackOriginMain()
			f.git("config", "diff.renames", "false")
			f.git("mv", "a.txt", "b.txt")
			f.commit("move")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			assertDiffStatMatchesGit(t, f, tt.upstream)
		})
	}
}

// trackOriginMain points origin/main at HEAD and makes it main's upstream.
func (f *fixture) trackOriginMain() {
	f.git("update-ref", "refs/remotes/origin/main", "HEAD")
	f.git("config", "branch.main.remote", "origin")
	f.git("config", "branch.main.merge", "refs/heads/main")
	f.git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
}

// assertDiffStatMatchesGit compares the DiffStatUpstream probe with
// `git diff --stat upstream...HEAD`.
func assertDiffStatMatchesGit(t *testing.T, f *fixture, upstream string) {
	t.Helper()
	want := lines(f.git("diff", "--stat", upstream+"...HEAD"))
	res := firstResult(Run(context.Background(), f.dir, []Probe{DiffStatUpstream}))
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.Command != "git diff --stat "+upstream+"...HEAD" {
		t.Errorf("command %q", res.Command)
	}
	compare(t, "diff --stat", want, res.Lines)
	// The same beside the status walk and the log, as init runs them (the
	// race detector watches what the two lanes share).
	all, _ := Run(context.Background(), f.dir, []Probe{Branch, Log(5, true), StatusShort, DiffStatUpstream})
	compare(t, "diff --stat beside the walk", want, all[3].Lines)
	compare(t, "status beside the diff stat", lines(f.statusTruth(f.dir)), all[2].Lines)
}

func TestDiffStatSaysWhyThereIsNoUpstream(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("base")
	res := firstResult(Run(context.Background(), f.dir, []Probe{DiffStatUpstream}))
	want := "(no upstream comparison available: branch main has no upstream and origin/HEAD is not set)"
	if res.Err != nil || len(res.Lines) != 1 || res.Lines[0] != want {
		t.Fatalf("got %q, %v; want %q", res.Lines, res.Err, want)
	}
}

func firstResult(res []Result, _ string) Result { return res[0] }

// TestRenameCandidatesAreInflatedOnce: rename detection reads both sides of
// a pair to compare them; their line counts reuse those reads.
func TestRenameCandidatesAreInflatedOnce(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", textLines(1, 40))
	f.write("docs/keep.txt", "k")
	f.commit("first")
	f.git("mv", "a.txt", "docs/a.txt")
	f.write("docs/a.txt", textLines(1, 40)+"one more line\n")
	f.commit("moved")
	store := openStore(t, f.dir)
	tree := func(rev string) plumbing.Hash {
		c, err := store.Commit(plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", rev))))
		if err != nil {
			t.Fatal(err)
		}
		return c.Tree
	}
	var changes []fileChange
	if err := diffTrees(store, tree("HEAD~1"), tree("HEAD"), "", 0, &changes); err != nil {
		t.Fatal(err)
	}
	paired, loaded := pairRenames(store, changes, 1000, func(string) int { return 0 })
	if len(paired) != 1 || paired[0].oldPath != "a.txt" {
		t.Fatalf("changes %+v, want a.txt renamed to docs/a.txt", paired)
	}
	for _, h := range []plumbing.Hash{paired[0].from, paired[0].to} {
		if _, ok := loaded[h]; !ok {
			t.Errorf("blob %s was read for the rename and not handed on", h)
		}
	}
	st, err := changeStat(nil, loaded, paired[0], func(string) int { return 0 }, xdiff.Counts)
	if err != nil || st.Added != 1 || st.Deleted != 0 {
		t.Errorf("changeStat from the loaded blobs alone = %+v, %v; want 1 added", st, err)
	}
}

// An upstream with no history in common with HEAD (an orphan branch
// fetched as the upstream) has no merge base: git fails, and so does the
// diff stat, with git's message.
func TestDiffStatOfUnrelatedHistoriesIsGitsError(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("base")
	f.git("checkout", "-q", "--orphan", "other")
	f.write("b.txt", "b\n")
	f.commit("other root")
	f.git("update-ref", "refs/remotes/origin/main", "other")
	f.git("checkout", "-q", "main")
	f.git("config", "branch.main.remote", "origin")
	f.git("config", "branch.main.merge", "refs/heads/main")
	f.git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
	cmd := exec.Command("git", "diff", "--stat", "origin/main...HEAD")
	cmd.Dir = f.dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no merge base") {
		t.Fatalf("git: %v %s", err, out)
	}
	res := firstResult(Run(context.Background(), f.dir, []Probe{DiffStatUpstream}))
	if res.Err == nil || res.Err.Error() != "fatal: origin/main...HEAD: no merge base" {
		t.Errorf("got %q, %v", res.Lines, res.Err)
	}
}

func TestChangeStatsGivesEveryFilesStatOnce(t *testing.T) {
	var changes []fileChange
	for i := range 50 {
		changes = append(changes, fileChange{path: fmt.Sprintf("f%02d", i)})
	}
	var calls atomic.Int32
	stats, err := changeStats(context.Background(), changes, func(c fileChange) (FileStat, error) {
		calls.Add(1)
		return FileStat{Name: c.path, Added: len(c.path)}, nil
	})
	if err != nil || len(stats) != 50 || calls.Load() != 50 {
		t.Fatalf("%d stats from %d calls, err %v; want 50 from 50", len(stats), calls.Load(), err)
	}
	seen := map[string]bool{}
	for _, s := range stats {
		seen[s.Name] = true
	}
	if len(seen) != 50 {
		t.Errorf("%d distinct files among 50 stats", len(seen))
	}
}

func TestChangeStatsFailsWithTheFilesError(t *testing.T) {
	changes := []fileChange{{path: "a"}, {path: "b"}, {path: "c"}}
	broken := errors.New("object not found")
	stats, err := changeStats(context.Background(), changes, func(c fileChange) (FileStat, error) {
		if c.path == "b" {
			return FileStat{}, broken
		}
		return FileStat{Name: c.path}, nil
	})
	if !errors.Is(err, broken) || stats != nil {
		t.Errorf("stats %v, err %v; want none and the file's error", stats, err)
	}
}

func TestChangeStatsCutByItsDeadlineKeepsWhatItHas(t *testing.T) {
	var changes []fileChange
	for i := range 100 {
		changes = append(changes, fileChange{path: fmt.Sprint(i)})
	}
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	stats, err := changeStats(ctx, changes, func(c fileChange) (FileStat, error) {
		if n.Add(1) == 10 {
			cancel()
		}
		return FileStat{Name: c.path}, nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the context's", err)
	}
	if len(stats) == 0 || len(stats) >= 100 || len(stats) != int(n.Load()) {
		t.Errorf("%d stats after %d calls cut at the 10th", len(stats), n.Load())
	}
}
