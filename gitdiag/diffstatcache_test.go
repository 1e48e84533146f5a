package gitdiag

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// diffStatWithCache runs the probe as a hook does, with the cache in dir.
func diffStatWithCache(t *testing.T, f *fixture, dir string) []string {
	t.Helper()
	s := NewShared(f.dir)
	s.CacheDir = dir
	defer s.Close()
	res, _ := s.Run(context.Background(), []Probe{DiffStatUpstream})
	if res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	return res[0].Lines
}

// The cache answers again only while every input of the diff stat is the
// same: a changed cache file shows whether it was used. A new commit, a
// rename setting, an attributes file that makes a changed path binary:
// each is computed again, and each matches git.
func TestTheDiffStatCacheAnswersOnlyForTheSameInputs(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n2\n3\n")
	f.write("b.txt", "x\n")
	f.commit("base")
	f.trackOriginMain()
	f.write("a.txt", "1\ntwo\n3\n4\n")
	f.write("c.txt", "new\n")
	f.commit("work")
	cache := t.TempDir()
	first := diffStatWithCache(t, f, cache)
	compare(t, "diff --stat, computed", lines(f.git("diff", "--stat", "origin/main...HEAD")), first)
	files, _ := filepath.Glob(filepath.Join(cache, "diffstat-*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	// Tamper with the cached result: while the inputs are the same, it is
	// what the probe answers (so the cache is used), and not otherwise.
	tamper := func() {
		b, _ := os.ReadFile(files[0])
		os.WriteFile(files[0], []byte(strings.Replace(string(b), `"Added":2`, `"Added":500`, 1)), 0o600)
	}
	tamper()
	if got := strings.Join(diffStatWithCache(t, f, cache), "\n"); !strings.Contains(got, "501 insertions") {
		t.Fatalf("the cache was not used for the same inputs:\n%s", got)
	}
	for _, change := range []struct {
		name string
		do   func()
	}{
		{"an attributes file makes a changed path binary", func() { f.write(".gitattributes", "a.txt binary\n") }},
		{"renames turned off", func() { f.git("config", "diff.renames", "false") }},
		{"a new commit", func() { f.write("b.txt", "y\n"); f.commit("more") }},
	} {
		tamper()
		change.do()
		got := diffStatWithCache(t, f, cache)
		if strings.Contains(strings.Join(got, "\n"), "501 insertions") {
			t.Errorf("%s: the cached result was used:\n%s", change.name, strings.Join(got, "\n"))
		}
		compare(t, "diff --stat after "+change.name, lines(f.git("diff", "--stat", "origin/main...HEAD")), got)
	}
}

// Without a cache directory nothing is written, and a cache file that is
// not ours (not JSON, another version) is computed over.
func TestTheDiffStatCacheIsOptionalAndDistrustsItsFile(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	f.commit("base")
	f.trackOriginMain()
	f.write("a.txt", "2\n")
	f.commit("work")
	want := lines(f.git("diff", "--stat", "origin/main...HEAD"))
	compare(t, "no cache", want, diffStatWithCache(t, f, ""))
	cache := t.TempDir()
	diffStatWithCache(t, f, cache)
	files, _ := filepath.Glob(filepath.Join(cache, "diffstat-*.json"))
	good, _ := os.ReadFile(files[0])
	otherVersion := strings.Replace(strings.Replace(string(good), `"version":1`, `"version":99`, 1), `"Added":1`, `"Added":500`, 1)
	for _, bad := range []string{"not json", otherVersion} {
		os.WriteFile(files[0], []byte(bad), 0o600)
		compare(t, "cache file "+bad, want, diffStatWithCache(t, f, cache))
	}
}

// A diff stat cut by its deadline is not kept: the next run computes it
// whole, whenever the cut came.
func TestACutDiffStatIsNotCached(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	f.commit("base")
	f.trackOriginMain()
	for i := 0; i < 6; i++ {
		f.write(fmt.Sprintf("f%d.txt", i), "x\n")
	}
	f.commit("work")
	want := lines(f.git("diff", "--stat", "origin/main...HEAD"))
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head, _ := r.Head()
	up, _ := r.Upstream(head)
	for n := int32(0); n < 20; n++ {
		cache := t.TempDir()
		r.CacheDir = cache
		ctx := &countdown{Context: context.Background()}
		ctx.n.Store(n)
		r.DiffStat(ctx, head, up)
		compare(t, fmt.Sprintf("after a cut at %d", n), want, diffStatWithCache(t, f, cache))
	}
}

// The cache keeps the newest files only.
func TestTheDiffStatCacheKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 5; i++ {
		p := filepath.Join(dir, "diffstat-"+string(rune('a'+i))+".json")
		os.WriteFile(p, nil, 0o600)
		os.Chtimes(p, time.Unix(int64(1000+i), 0), time.Unix(int64(1000+i), 0))
	}
	os.WriteFile(filepath.Join(dir, "other.json"), nil, 0o600)
	pruneDiffStats(dir, 3)
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	var names []string
	for _, p := range left {
		names = append(names, filepath.Base(p))
	}
	if strings.Join(names, " ") != "diffstat-c.json diffstat-d.json diffstat-e.json other.json" {
		t.Errorf("left %v", names)
	}
}

// Each work tree keeps its own result: a start in one worktree does not
// evict another's, and each answers from the cache afterwards.
func TestEachWorktreeKeepsItsOwnDiffStat(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	f.commit("base")
	f.trackOriginMain()
	f.write("a.txt", "2\n")
	f.commit("work")
	wt := &fixture{t: t, dir: f.dir + "-wt"}
	f.git("worktree", "add", "-q", "-b", "other", wt.dir, "HEAD~1")
	wt.git("config", "branch.other.remote", "origin")
	wt.git("config", "branch.other.merge", "refs/heads/main")
	wt.write("b.txt", "b\n")
	wt.commit("other work")
	cache := t.TempDir()
	diffStatWithCache(t, f, cache)
	diffStatWithCache(t, wt, cache)
	files, _ := filepath.Glob(filepath.Join(cache, "diffstat-*.json"))
	if len(files) != 2 {
		t.Fatalf("%d cache files for two worktrees", len(files))
	}
	for _, w := range []*fixture{f, wt} {
		compare(t, "diff --stat from the cache in "+w.dir, lines(w.git("diff", "--stat", "origin/main...HEAD")), diffStatWithCache(t, w, cache))
	}
}
