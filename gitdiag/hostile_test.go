package gitdiag

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
)

// A repository whose metadata names a device where git expects a file
// (a config include of /dev/zero, HEAD linked to /dev/urandom…) once held
// a hook for its whole deadline and half a gigabyte of memory, reading a
// file that never ends. Each such file is now refused at once.
func TestMetadataThatIsNotAFileFailsAtOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	tests := []struct {
		name  string
		plant func(t *testing.T, f *fixture)
	}{
		{"an include of /dev/zero", func(t *testing.T, f *fixture) { f.git("config", "include.path", "/dev/zero") }},
		{"an include of /dev/urandom", func(t *testing.T, f *fixture) { f.git("config", "include.path", "/dev/urandom") }},
		{"an includeIf of /dev/zero", func(t *testing.T, f *fixture) {
			f.git("config", "includeIf.gitdir:/.path", "/dev/zero")
		}},
		{"HEAD linked to /dev/zero", func(t *testing.T, f *fixture) { relink(t, f.path(".git/HEAD"), "/dev/zero") }},
		{"the index linked to /dev/zero", func(t *testing.T, f *fixture) { relink(t, f.path(".git/index"), "/dev/zero") }},
		{"commondir linked to /dev/zero", func(t *testing.T, f *fixture) { relink(t, f.path(".git/commondir"), "/dev/zero") }},
		{"alternates linked to /dev/zero", func(t *testing.T, f *fixture) {
			relink(t, f.path(".git/objects/info/alternates"), "/dev/zero")
		}},
		{"shallow linked to /dev/zero", func(t *testing.T, f *fixture) { relink(t, f.path(".git/shallow"), "/dev/zero") }},
		{"info/exclude linked to /dev/zero", func(t *testing.T, f *fixture) { relink(t, f.path(".git/info/exclude"), "/dev/zero") }},
		{"packed-refs linked to /dev/zero", func(t *testing.T, f *fixture) { relink(t, f.path(".git/packed-refs"), "/dev/zero") }},
		{"a branch's ref linked to /dev/zero", func(t *testing.T, f *fixture) {
			relink(t, f.path(".git/refs/heads/"+strings.TrimSpace(f.git("branch", "--show-current"))), "/dev/zero")
		}},
		{"GIT_INDEX_FILE naming /dev/zero", func(t *testing.T, f *fixture) { t.Setenv("GIT_INDEX_FILE", "/dev/zero") }},
		{"GIT_CONFIG_GLOBAL naming /dev/zero", func(t *testing.T, f *fixture) { t.Setenv("GIT_CONFIG_GLOBAL", "/dev/zero") }},
		{"a .gitignore that is a FIFO-like device", func(t *testing.T, f *fixture) { relink(t, f.path("sub/.gitignore"), "/dev/zero") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.write("sub/b.txt", "b\n")
			f.commit("first")
			tt.plant(t, f)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			s := NewShared(f.dir)
			defer s.Close()
			results, _ := s.Run(ctx, []Probe{Branch, StatusShort, Log(3, false)})
			if ctx.Err() != nil {
				t.Fatalf("the probes ran into the deadline")
			}
			for _, res := range results {
				if res.Err != nil && !errors.Is(res.Err, rawfile.ErrNotRegular) && !strings.Contains(res.Err.Error(), "not a regular file") &&
					!errors.Is(res.Err, errLinkOut) {
					t.Errorf("%s: %v, want an error naming the file that is not a regular one, or the link out", res.Command, res.Err)
				}
			}
		})
	}
}

// relink replaces path (made if missing) by a symbolic link to target.
func relink(t *testing.T, path, target string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.Remove(path)
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// A linked worktree whose gitdir was removed names nothing: git says it is
// not a repository, and so do we (we said HEAD could not be read).
func TestAWorktreeWhoseGitdirIsGoneIsNotARepositoryAsInGit(t *testing.T) {
	f := newFixture(t)
	f.commit("first")
	wt := filepath.Join(t.TempDir(), "wt")
	f.git("worktree", "add", "-q", "-b", "side", wt)
	gitdir := strings.TrimSpace(strings.TrimPrefix(readString(t, filepath.Join(wt, ".git")), "gitdir: "))
	os.RemoveAll(gitdir)
	want := strings.TrimSpace(gitOutput(wt, "status", "--short"))
	_, err := Open(wt)
	if err == nil || err.Error() != want {
		t.Errorf("got %v, git says %q", err, want)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A blob claiming more than the diff stat counts lines of (a few hundred
// bytes of zlib can claim 300 MiB) is binary by its declared size, as git
// counts one past core.bigFileThreshold: it is never inflated, whichever
// version of the file is over the bound, and each keeps its own size.
func TestABlobBombInTheDiffStatIsBinaryByItsSize(t *testing.T) {
	dir := t.TempDir()
	bomb := func(hex string, size int) plumbing.Hash {
		h := plumbing.NewHash(hex)
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		fmt.Fprintf(w, "blob %d\x00", size)
		w.Write(bytes.Repeat([]byte("a"), 1<<16))
		w.Close()
		p := filepath.Join(dir, h.String()[:2], h.String()[2:])
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, z.Bytes(), 0o444)
		return h
	}
	old, now := bomb("89abcdef0123456789abcdef0123456789abcdef", 314572800), bomb("0123456789abcdef0123456789abcdef01234567", 209715200)
	store, err := objects.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name             string
		change           fileChange
		oldSize, newSize int64
	}{
		{"the new version", fileChange{path: "bomb.txt", to: old, toMode: 0o100644}, 0, 314572800},
		{"the old version", fileChange{path: "bomb.txt", from: old, fromMode: 0o100644}, 314572800, 0},
		{"both versions", fileChange{path: "bomb.txt", from: old, fromMode: 0o100644, to: now, toMode: 0o100644}, 314572800, 209715200},
	} {
		st, err := changeStat(store, nil, tt.change,
			func(string) int { return 0 }, func(a, b []byte) (int, int) { t.Fatal("lines counted"); return 0, 0 })
		if err != nil || !st.Binary || st.OldSize != tt.oldSize || st.NewSize != tt.newSize {
			t.Errorf("%s over the bound: got %+v, %v; want Bin %d -> %d bytes", tt.name, st, err, tt.oldSize, tt.newSize)
		}
	}
}

// A sparse packed-refs of gigabytes costs nothing on disk: it is refused
// by its size, as every metadata file past rawfile.MaxFile is, not read.
func TestAHugeSparsePackedRefsIsRefusedByItsSize(t *testing.T) {
	f := newFixture(t)
	f.commit("a")
	p := filepath.Join(f.dir, ".git", "packed-refs")
	file, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := file.Truncate(5 << 30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	file.Close()
	if _, _, err = readPackedRefs(p, openFile); !errors.Is(err, rawfile.ErrTooLarge) {
		t.Errorf("a 5 GB packed-refs: %v", err)
	}
	// The bound itself: one byte over it is refused by its size, one of
	// exactly it is not (it is read, and fails on what it holds).
	for size, refused := range map[int64]bool{rawfile.MaxFile + 1: true, rawfile.MaxFile: false} {
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
		if _, _, err = readPackedRefs(p, openFile); errors.Is(err, rawfile.ErrTooLarge) != refused {
			t.Errorf("a packed-refs of %d bytes: %v (refused by its size: want %v)", size, err, refused)
		}
	}
}

// A gc (pack-refs) that runs after the hook read packed-refs moves a ref
// there and deletes it as a loose file: the ref is still found, from
// packed-refs read again. The concurrent gc test shows it under load; this
// one shows the rule, in the fast suite.
func TestARefPackedAfterPackedRefsWasReadIsFound(t *testing.T) {
	f := newFixture(t)
	f.commit("a")
	f.git("branch", "topic")
	f.git("branch", "other")
	f.git("pack-refs", "--all") // packed-refs exists, topic loose
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.resolveRef("refs/heads/other"); err != nil { // packed-refs read now
		t.Fatal(err)
	}
	f.git("commit", "-q", "--allow-empty", "-m", "b")
	f.git("update-ref", "refs/heads/topic", "HEAD")
	want := strings.TrimSpace(f.git("rev-parse", "refs/heads/topic"))
	f.git("pack-refs", "--all", "--prune") // topic moves into packed-refs
	got, err := r.resolveRef("refs/heads/topic")
	if err != nil || got.String() != want {
		t.Errorf("topic after pack-refs: %s, %v; git says %s", got, err, want)
	}
}

// A chain of trees each holding only the next costs a few bytes a level:
// walked by recursion without a bound, a crafted chain overflowed the
// stack (a crash, a trace on stderr). Every walk down trees stops at
// git's own limit, core.maxTreeDepth, and says so.
func TestTreesNestedPastGitsLimitAreRefusedNotWalked(t *testing.T) {
	for _, tt := range []struct {
		depth   int
		refused bool
	}{
		{100, false},
		{objects.MaxTreeDepth + 50, true},
	} {
		t.Run(fmt.Sprintf("depth %d", tt.depth), func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commit("first")
			base := plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD")))
			tree := f.treeChain(tt.depth)
			deep := strings.TrimSpace(f.git("commit-tree", tree.String(), "-p", "HEAD", "-m", "deep"))
			f.git("update-ref", "HEAD", deep)

			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			_, err = r.Status(context.Background())
			if got := errors.Is(err, objects.ErrTooDeep); got != tt.refused {
				t.Errorf("status: %v; want refused %v", err, tt.refused)
			}
			store, err := r.objects()
			if err != nil {
				t.Fatal(err)
			}
			stats, err := r.diffStat(context.Background(), store, base, plumbing.NewHash(deep), func(string) int { return 0 })
			if got := errors.Is(err, objects.ErrTooDeep); got != tt.refused {
				t.Errorf("diff stat: %v; want refused %v", err, tt.refused)
			}
			if !tt.refused && len(stats) != 2 {
				t.Errorf("diff stat of a chain %d deep: %+v; want a.txt gone and the deep file added", tt.depth, stats)
			}
		})
	}
}

// treeChain writes depth nested trees "d/d/…/d/f" as loose objects, as no
// work tree could hold them (the path is longer than PATH_MAX), and
// returns the top one.
func (f *fixture) treeChain(depth int) plumbing.Hash {
	blob := f.writeLoose("blob", []byte("deep\n"))
	h := f.writeLoose("tree", append([]byte("100644 f\x00"), blob[:]...))
	for i := 0; i < depth; i++ {
		h = f.writeLoose("tree", append([]byte("40000 d\x00"), h[:]...))
	}
	return h
}

func (f *fixture) writeLoose(kind string, content []byte) plumbing.Hash {
	f.t.Helper()
	h := plumbing.ComputeHash(map[string]plumbing.ObjectType{"blob": plumbing.BlobObject, "tree": plumbing.TreeObject}[kind], content)
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	fmt.Fprintf(w, "%s %d\x00", kind, len(content))
	w.Write(content)
	w.Close()
	p := f.path(".git/objects/" + h.String()[:2] + "/" + h.String()[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, z.Bytes(), 0o444); err != nil && !os.IsExist(err) {
		f.t.Fatal(err)
	}
	return h
}

// The stash reflog is read line by line, keeping the newest entries asked
// for: read whole, a 250 MB reflog cost 542 MB. Its count stays exact
// through a line of megabytes, and the rest of that line is not kept.
func TestAHugeStashReflogIsCountedInBoundedMemory(t *testing.T) {
	f := newFixture(t)
	f.commit("base")
	var b strings.Builder
	entry := func(msg string) {
		fmt.Fprintf(&b, "%s %s t <t@example.com> 1700000000 +0000\t%s\n", strings.Repeat("0", 40), strings.Repeat("1", 40), msg)
	}
	for i := 0; i < 3000; i++ {
		entry(fmt.Sprintf("On main: stash %d", i))
	}
	entry("On main: " + strings.Repeat("long ", 4<<20))
	entry("WIP on main: 1234567 the newest")
	p := f.path(".git/logs/refs/stash")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	stashes, n := r.Stashes(2)
	runtime.ReadMemStats(&after)
	if n != 3002 || len(stashes) != 2 || stashes[0].Message != "WIP on main: 1234567 the newest" ||
		!strings.HasPrefix(stashes[1].Message, "On main: long long") || len(stashes[1].Message) > 8<<10 {
		t.Errorf("got %d stashes, newest %.80q", n, stashes)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 2<<20 {
		t.Errorf("reading the reflog allocated %d KiB", got>>10)
	}
	if none, n := r.Stashes(0); len(none) != 0 || n != 3002 {
		t.Errorf("asked for none: %d listed of %d", len(none), n)
	}
}

// A ref name the repository's metadata gives (a symbolic ref's target,
// an upstream's remote) with ".." in it is no ref for git, and is not read
// as a path out of the git directory.
func TestRefNamesThatClimbOutOfTheGitDirectoryAreRefused(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("first")
	outside := t.TempDir()
	head := strings.TrimSpace(f.git("rev-parse", "HEAD"))
	os.MkdirAll(filepath.Join(outside, "x"), 0o755)
	os.WriteFile(filepath.Join(outside, "x", "main"), []byte(head+"\n"), 0o644)
	rel, _ := filepath.Rel(filepath.Join(f.dir, ".git", "refs", "remotes"), outside)
	f.git("config", "branch.main.remote", rel+"/x")
	f.git("config", "branch.main.merge", "refs/heads/main")
	f.git("config", "remote."+rel+"/x.fetch", "+refs/heads/*:refs/remotes/"+rel+"/x/*")
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	if up, err := r.Upstream(h); err == nil {
		t.Errorf("the upstream %q read through %s", up.Name, rel)
	}
	os.WriteFile(f.path(".git/HEAD"), []byte("ref: refs/heads/../../"+rel+"/x/main\n"), 0o644)
	r2, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if h, err := r2.Head(); err == nil {
		t.Errorf("HEAD read through a ref name with ..: %+v", h)
	}
}

// A metadata file of the git directory linked to another repository's (a
// packed-refs, an index, a shared index) is not read, and the engine says
// which; a link within the repository is followed, as git follows it.
func TestGitFilesLinkedToAnotherRepositoryAreNotRead(t *testing.T) {
	other := newFixture(t)
	other.write("secret.txt", "s\n")
	other.commit("other")
	other.git("pack-refs", "--all")
	for _, name := range []string{"packed-refs", "index"} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commit("first")
			relink(t, f.path(".git/"+name), other.path(".git/"+name))
			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.Status(context.Background()); name == "index" && !errors.Is(err, errLinkOut) {
				t.Errorf("status through the other repository's index: %v", err)
			}
			if _, err := r.packedRefs(); name == "packed-refs" && !errors.Is(err, errLinkOut) {
				t.Errorf("packed-refs read through the link: %v", err)
			}
			if e := r.Engine(); !strings.Contains(e, "outside the repository: "+name+" (a link)") {
				t.Errorf("engine %q says nothing of %s", e, name)
			}
		})
	}
	t.Run("a link within the repository", func(t *testing.T) {
		f := newFixture(t)
		f.write("a.txt", "a\n")
		f.commit("first")
		os.Rename(f.path(".git/index"), f.path(".git/index-real"))
		relink(t, f.path(".git/index"), "index-real")
		f.write("new.txt", "n\n")
		_, st := openStatus(t, f.dir, false)
		if got := strings.Join(st.Short(""), "\n"); got != "?? new.txt" {
			t.Errorf("status %q through a link within the git directory", got)
		}
	})
}
