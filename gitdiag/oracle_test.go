package gitdiag

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The git CLI is the oracle: on the same repository, gitdiag must print what
// git prints. These helpers build repositories with it.

type fixture struct {
	t   *testing.T
	dir string
	// untrackedCache: git keeps an untracked cache here, which the
	// comparisons leave for the next step to use (see statusTruth).
	untrackedCache bool
}

// isolateGit keeps the developer's own git configuration out of the tests,
// for git and for gitdiag alike (both read HOME and XDG_CONFIG_HOME).
func isolateGit(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("the git CLI is needed as the oracle for these tests: %v", err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	return home
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	isolateGit(t)
	f := &fixture{t: t, dir: t.TempDir()}
	f.git("init", "-q", "-b", "main")
	return f
}

func (f *fixture) git(args ...string) string {
	f.t.Helper()
	return f.gitIn(f.dir, args...)
}

func (f *fixture) gitIn(dir string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr // warnings are not part of what is compared
	out, err := cmd.Output()
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// gitStdin runs git in the fixture with stdin as its input.
func (f *fixture) gitStdin(stdin string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = f.dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		f.t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// statusTruth is `git status --short` in dir. Where git keeps an untracked
// cache, it is computed without it and without writing the index, then git
// refreshes the cache: git's cache has faults of its own (git 2.39 kept
// showing an untracked directory as such after everything below it was
// removed), and gitdiag must say what the work tree holds.
func (f *fixture) statusTruth(dir string) string {
	f.t.Helper()
	if !f.untrackedCache {
		return f.gitIn(dir, "status", "--short")
	}
	cmd := exec.Command("git", "-c", "core.untrackedCache=false", "status", "--short")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if err != nil {
		f.t.Fatalf("git status: %v", err)
	}
	f.gitIn(dir, "status", "--porcelain")
	return string(out)
}

// gitMayFail runs git where a non-zero exit is part of the scenario (a
// merge that conflicts).
func (f *fixture) gitMayFail(args ...string) {
	cmd := exec.Command("git", args...)
	cmd.Dir = f.dir
	cmd.Run()
}

func (f *fixture) write(name, content string) {
	f.t.Helper()
	p := filepath.Join(f.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) commit(msg string) {
	f.t.Helper()
	f.git("add", "-A")
	f.git("commit", "-q", "--allow-empty", "-m", msg)
}

func (f *fixture) path(name string) string { return filepath.Join(f.dir, filepath.FromSlash(name)) }

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// openStatus opens the repository at dir and computes its status; with
// parallel, the walk is parallel even in a small tree, as it is from
// parallelWalkMin directories.
func openStatus(t *testing.T, dir string, parallel bool) (*Repo, *Status) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(r.Close)
	r.forceParallel = parallel
	st, err := r.Status(context.Background())
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	return r, st
}

// assertMatchesGit checks every fact gitdiag derives against the git CLI,
// from the top of the work tree and from sub (if not empty).
func assertMatchesGit(t *testing.T, f *fixture, sub string) {
	t.Helper()
	for _, dir := range []string{"", sub} {
		if dir == "" && sub != "" {
			continue
		}
		at := f.path(dir)
		ctx := context.Background()
		r, st := openStatus(t, at, false)
		_, parallel := openStatus(t, at, true)
		want := lines(f.statusTruth(at))
		compare(t, "status --short", want, st.Short(r.Prefix))
		compare(t, "status --short (parallel walk)", want, parallel.Short(r.Prefix))
		head, err := r.Head()
		if err != nil {
			t.Fatal(err)
		}
		if !head.Unborn { // git refuses `diff HEAD` without a commit
			compare(t, "diff --name-only HEAD", lines(f.gitIn(at, "diff", "--name-only", "HEAD")), st.NamesAgainstHEAD())
		}
		if mode, _ := exec.Command("git", "-C", at, "config", "status.showUntrackedFiles").Output(); len(mode) == 0 {
			compare(t, "ls-files --others --directory", lines(f.gitIn(at, "-C", r.Root, "ls-files", "--others", "--exclude-standard", "--directory", "--no-empty-directory")), st.UntrackedNames())
		}
		if !head.Detached && !head.Unborn {
			compare(t, "branch --show-current", lines(f.gitIn(at, "branch", "--show-current")), []string{head.String()})
		}
		if head.Unborn {
			continue
		}
		for _, decorate := range []bool{true, false} {
			args := []string{"log", "--oneline", "-5", "--no-decorate"}
			if decorate {
				args[3] = "--decorate"
			}
			commits, err := r.Log(ctx, 5, decorate)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range commits {
				got = append(got, c.Oneline())
			}
			compare(t, strings.Join(args, " "), lines(f.gitIn(at, args...)), got)
		}
	}
}

func compare(t *testing.T, what string, want, got []string) {
	t.Helper()
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("%s differs from git\n--- git:\n%s\n--- gitdiag:\n%s", what, strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

func TestStatusMatchesGit(t *testing.T) {
	tests := []struct {
		name  string
		sub   string // also compare from this subdirectory
		setup func(f *fixture)
	}{
		{"clean tree", "", func(f *fixture) {
			f.write("a.txt", "a\n")
			f.commit("first")
		}},
		{"symlinked .gitignore files are not followed", "", func(f *fixture) {
			f.write("a.txt", "a\n")
			f.commit("first")
			rules := filepath.Join(f.t.TempDir(), "rules")
			os.WriteFile(rules, []byte("*.txt\n"), 0o644)
			os.Symlink(rules, f.path(".gitignore"))
			f.write("sub/b.txt", "b\n")
			os.Symlink(rules, f.path("sub/.gitignore"))
			f.write("c.txt", "c\n")
		}},
		{"modified deleted and untracked files", "", func(f *fixture) {
			f.write("a.txt", "a\n")
			f.write("b.txt", "b\n")
			f.write("dir/c.txt", "c\n")
			f.commit("first")
			f.write("a.txt", "changed\n")
			os.Remove(f.path("b.txt"))
			f.write("new.txt", "n\n")
			f.write("newdir/x/y.txt", "y\n")
			f.write("dir/d.txt", "d\n")
			os.MkdirAll(f.path("emptydir/inner"), 0o755)
		}},
		{"staged changes of every kind", "", func(f *fixture) {
			f.write("keep.txt", "k\n")
			f.write("mod.txt", "m\n")
			f.write("gone.txt", "g\n")
			f.write("uncached.txt", "u\n")
			f.write("both.txt", "1\n")
			f.write("tool.sh", "echo\n")
			f.commit("first")
			f.write("added.txt", "new\n")
			f.write("mod.txt", "m2\n")
			f.git("add", "added.txt", "mod.txt")
			f.git("rm", "-q", "gone.txt")
			f.git("rm", "-q", "--cached", "uncached.txt")
			f.write("both.txt", "2\n")
			f.git("add", "both.txt")
			f.write("both.txt", "3\n")
			os.Chmod(f.path("tool.sh"), 0o755)
			f.write("ita.txt", "intent\n")
			f.git("add", "-N", "ita.txt")
			f.write("added.txt", "new again\n")
		}},
		{"staged change reverted in the work tree", "", func(f *fixture) {
			f.write("a.txt", "one\n")
			f.commit("first")
			f.write("a.txt", "two\n")
			f.git("add", "a.txt")
			f.write("a.txt", "one\n")
		}},
		{"added then removed from disk", "", func(f *fixture) {
			f.write("a.txt", "one\n")
			f.commit("first")
			f.write("b.txt", "b\n")
			f.git("add", "b.txt")
			os.Remove(f.path("b.txt"))
		}},
		{"type changes", "", func(f *fixture) {
			f.write("link", "x\n")
			f.write("file", "y\n")
			f.write("dir/inner.txt", "z\n")
			f.commit("first")
			os.Remove(f.path("link"))
			os.Symlink("file", f.path("link"))
			os.Remove(f.path("file"))
			f.write("file/now-a-dir.txt", "d\n")
			os.RemoveAll(f.path("dir"))
			os.Symlink("/tmp", f.path("dir"))
			f.write("fifo-to-be", "f\n")
			f.git("add", "fifo-to-be")
			os.Remove(f.path("fifo-to-be"))
			mkfifo(f.path("fifo-to-be"))
			mkfifo(f.path("untracked-fifo"))
		}},
		{"staged type changes are T, a staged mode change is M", "", func(f *fixture) {
			f.write("to-link", "x\n")
			f.write("target", "t\n")
			f.write("tool.sh", "echo\n")
			f.commit("first")
			os.Symlink("target", f.path("was-link"))
			f.git("add", "was-link")
			f.commit("second")
			os.Remove(f.path("to-link"))
			os.Symlink("target", f.path("to-link"))
			os.Remove(f.path("was-link"))
			f.write("was-link", "now a file\n")
			os.Chmod(f.path("tool.sh"), 0o755)
			f.git("add", "to-link", "was-link", "tool.sh")
		}},
		{"after reset --soft: the index's cache tree is valid and is not HEAD's", "", func(f *fixture) {
			f.write("dir/a.txt", "one\n")
			f.write("dir/sub/b.txt", "one\n")
			f.write("top.txt", "one\n")
			f.commit("first")
			f.write("dir/a.txt", "two\n")
			f.write("dir/sub/b.txt", "two\n")
			f.commit("second")
			f.git("reset", "-q", "--soft", "HEAD~1")
		}},
		{"every shape of conflict, on paths HEAD has and has not", "", func(f *fixture) {
			// Stages 1 (base), 2 (ours) and 3 (theirs) in each of the seven
			// combinations git names: DD AU UD UA DU AA UU.
			for _, p := range []string{"dd.txt", "ud.txt", "du.txt", "uu.txt"} {
				f.write(p, "base "+p+"\n")
			}
			f.commit("base")
			blob := func(s string) string {
				return strings.TrimSpace(f.gitStdin(s, "hash-object", "-w", "--stdin"))
			}
			var info strings.Builder
			zero := strings.Repeat("0", 40)
			for _, c := range []struct {
				path   string
				stages []int
			}{
				{"dd.txt", []int{1}}, {"au.txt", []int{2}}, {"ud.txt", []int{1, 2}}, {"ua.txt", []int{3}},
				{"du.txt", []int{1, 3}}, {"aa.txt", []int{2, 3}}, {"uu.txt", []int{1, 2, 3}},
			} {
				fmt.Fprintf(&info, "0 %s 0\t%s\n", zero, c.path)
				for _, st := range c.stages {
					fmt.Fprintf(&info, "100644 %s %d\t%s\n", blob(fmt.Sprintf("%s stage %d\n", c.path, st)), st, c.path)
				}
			}
			f.gitStdin(info.String(), "update-index", "--index-info")
			os.Remove(f.path("dd.txt"))
			f.write("ua.txt", "theirs on disk\n")
			f.write("aa.txt", "both on disk\n")
		}},
		{"ignore rules nested negated and excluded", "", func(f *fixture) {
			f.write(".gitignore", "*.log\n!keep.log\nbuild/\n/rootonly\n")
			f.write("src/.gitignore", "*.tmp\n!important.tmp\n")
			f.write("src/main.go", "package main\n")
			f.commit("first")
			f.write("a.log", "x")
			f.write("keep.log", "x")
			f.write("build/out.bin", "x")
			f.write("rootonly", "x")
			f.write("src/rootonly", "x")
			f.write("src/x.tmp", "x")
			f.write("src/important.tmp", "x")
			f.write("src/deep/y.tmp", "x")
			f.write("onlyignored/z.log", "x")
			f.write("info-excluded.txt", "x")
			f.write("global-excluded.txt", "x")
			f.write(".git/info/exclude", "info-excluded.txt\n")
			os.MkdirAll(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "git"), 0o755)
			os.WriteFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "git", "ignore"), []byte("global-excluded.txt\n"), 0o644)
		}},
		{"core.excludesFile", "", func(f *fixture) {
			f.write("a.txt", "a")
			f.commit("first")
			excludes := filepath.Join(os.Getenv("HOME"), "my-excludes")
			os.WriteFile(excludes, []byte("*.secret\n"), 0o644)
			f.git("config", "--global", "core.excludesFile", excludes)
			f.write("x.secret", "s")
			f.write("y.txt", "y")
		}},
		{"tracked file inside an ignored directory", "", func(f *fixture) {
			f.write(".gitignore", "vendor/\n")
			f.write("vendor/kept.txt", "k")
			f.git("add", "-f", "vendor/kept.txt")
			f.commit("first")
			f.write("vendor/kept.txt", "changed")
			f.write("vendor/new.txt", "n")
		}},
		{"racily clean files written with the index", "", func(f *fixture) {
			f.write("a.txt", "aaaa\n")
			f.write("b.txt", "bbbb\n")
			f.commit("first")
			f.write("a.txt", "cccc\n")
		}},
		{"merge conflicts", "", func(f *fixture) {
			f.write("both.txt", "base\n")
			f.write("deleted-by-them.txt", "base\n")
			f.commit("base")
			f.git("checkout", "-q", "-b", "other")
			f.write("both.txt", "theirs\n")
			os.Remove(f.path("deleted-by-them.txt"))
			f.write("added-both.txt", "theirs\n")
			f.commit("theirs")
			f.git("checkout", "-q", "main")
			f.write("both.txt", "ours\n")
			f.write("deleted-by-them.txt", "ours\n")
			f.write("added-both.txt", "ours\n")
			f.commit("ours")
			f.gitMayFail("merge", "-q", "other")
		}},
		{"unborn branch with staged files", "", func(f *fixture) {
			f.write("a.txt", "a")
			f.write("b/c.txt", "c")
			f.git("add", "a.txt")
		}},
		{"empty repository", "", func(f *fixture) {}},
		{"paths git quotes", "", func(f *fixture) {
			f.write("plain.txt", "p")
			f.commit("first")
			f.write("with space.txt", "s")
			f.write("quote\"d.txt", "q")
			f.write("ünïcode.txt", "u")
			f.write("tab\there.txt", "t")
			f.write("plain.txt", "changed")
			f.write("dir with space/x.txt", "x")
		}},
		{"status from a subdirectory", "sub/deep", func(f *fixture) {
			f.write("top.txt", "t")
			f.write("sub/deep/here.txt", "h")
			f.write("sub/side.txt", "s")
			f.write("other/o.txt", "o")
			f.commit("first")
			f.write("top.txt", "changed")
			f.write("sub/deep/here.txt", "changed")
			f.write("sub/side.txt", "changed")
			f.write("other/o.txt", "changed")
			f.write("untracked-top.txt", "u")
			f.write("sub/deep/untracked.txt", "u")
			f.write("other/newdir/n.txt", "n")
		}},
		{"nested repository and untracked directories", "", func(f *fixture) {
			f.write("a.txt", "a")
			f.commit("first")
			f.gitIn(f.dir, "init", "-q", f.path("nested"))
			f.write("nested/inner.txt", "i")
			f.write("loose/x/y.txt", "y")
			f.write("loose/z.txt", "z")
		}},
		{"a directory larger than one read of its listing", "", func(f *fixture) {
			long := strings.Repeat("long-name-", 12)
			for i := 0; i < 3000; i++ {
				f.write(fmt.Sprintf("big/%s%04d.txt", long, i), "x")
			}
			f.commit("first")
			for i := 0; i < 3000; i += 7 {
				f.write(fmt.Sprintf("big/%s%04d.txt", long, i), "changed")
			}
			f.write("big/zz-untracked.txt", "u")
		}},
		{"showUntrackedFiles=all lists every file", "", func(f *fixture) {
			f.write("a.txt", "a")
			f.commit("first")
			f.git("config", "status.showUntrackedFiles", "all")
			f.write("loose/x/y.txt", "y")
			f.write("loose/z.txt", "z")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			assertMatchesGit(t, f, tt.sub)
		})
	}
}

func TestLogMatchesGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
	}{
		{"tags, remote branches and other branches", func(f *fixture) {
			f.write("a", "1")
			f.commit("first")
			f.git("tag", "v0.1")
			f.write("a", "2")
			f.commit("second\n\nwith a body")
			f.git("tag", "-a", "v0.2", "-m", "annotated")
			f.git("branch", "feature")
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
			f.git("stash", "list")
		}},
		{"packed refs and a packed history", func(f *fixture) {
			for i := 0; i < 12; i++ {
				f.write("f", strings.Repeat("x", i))
				f.commit("commit number " + strings.Repeat("i", i+1))
			}
			f.git("tag", "-a", "rel", "-m", "release")
			f.git("gc", "-q")
			f.write("f", "after gc")
			f.commit("loose commit after gc")
		}},
		{"merges with commits at the same second", func(f *fixture) {
			t0 := "2026-01-02T03:04:05Z"
			f.t.Setenv("GIT_COMMITTER_DATE", t0)
			f.t.Setenv("GIT_AUTHOR_DATE", t0)
			f.write("a", "1")
			f.commit("base")
			f.git("checkout", "-q", "-b", "side")
			f.write("b", "1")
			f.commit("side one")
			f.write("b", "2")
			f.commit("side two")
			f.git("checkout", "-q", "main")
			f.write("c", "1")
			f.commit("main one")
			f.git("merge", "-q", "--no-edit", "side")
		}},
		{"multi-line subject and detached HEAD", func(f *fixture) {
			f.write("a", "1")
			f.commit("line one\nline two  \n\nbody")
			f.write("a", "2")
			f.commit("\n\nleading blank lines")
			f.git("checkout", "-q", "--detach", "HEAD~1")
		}},
		{"packed lightweight and annotated tags, with and without the peeled traits", func(f *fixture) {
			f.write("a", "1")
			f.commit("first")
			f.git("tag", "light")
			f.git("tag", "-a", "heavy", "-m", "annotated")
			f.git("tag", "-a", "heavier", "-m", "on a tag", "heavy")
			f.write("a", "2")
			f.commit("second")
			f.git("tag", "-a", "top", "-m", "annotated")
			f.git("pack-refs", "--all")
			// git writes "peeled fully-peeled": a tag with no "^" line is
			// its own target. Without the traits (an older git's file, no
			// "^" lines), every tag is looked up.
			b, _ := os.ReadFile(f.path(".git/packed-refs"))
			lines := strings.Split(string(b), "\n")
			if !strings.Contains(lines[0], "fully-peeled") {
				f.t.Fatalf("packed-refs header %q", lines[0])
			}
			var kept []string
			for _, l := range lines[1:] {
				if !strings.HasPrefix(l, "^") {
					kept = append(kept, l)
				}
			}
			os.WriteFile(f.path(".git/packed-refs"), []byte(strings.Join(kept, "\n")), 0o644)
		}},
		{"packed tags peeled as git writes them", func(f *fixture) {
			f.write("a", "1")
			f.commit("first")
			f.git("tag", "light")
			f.git("tag", "-a", "heavy", "-m", "annotated")
			f.write("a", "2")
			f.commit("second")
			f.git("tag", "light2")
			f.git("pack-refs", "--all")
		}},
		{"stash and notes are not decorations", func(f *fixture) {
			f.write("a", "1")
			f.commit("first")
			f.write("a", "2")
			f.git("stash", "-q")
			f.git("notes", "add", "-m", "note")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			assertMatchesGit(t, f, "")
		})
	}
}

// git compares timestamps to the second, so an edit that keeps the size and
// restores the mtime within the second of its ctime goes unseen by git
// status. gitdiag compares nanoseconds and hashes whenever the stat data
// differs at all, so it reports what the content says.
func TestSameSizeEditWithRestoredMtimeIsModified(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "aaaa\n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(f.path("a.txt"), old, old)
	f.commit("first")
	f.write("a.txt", "bbbb\n")
	os.Chtimes(f.path("a.txt"), old, old)

	indexed := strings.Fields(f.git("ls-files", "-s", "a.txt"))[1]
	onDisk := strings.TrimSpace(f.git("hash-object", "a.txt"))
	if indexed == onDisk {
		t.Fatal("the scenario did not change the content")
	}
	_, st := openStatus(t, f.dir, false)
	compare(t, "status --short", []string{" M a.txt"}, st.Short(""))
	compare(t, "diff --name-only HEAD", []string{"a.txt"}, st.NamesAgainstHEAD())
}

func TestHeadNamesDetachedAndUnbornStates(t *testing.T) {
	f := newFixture(t)
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.Head()
	if err != nil || h.String() != "main (no commits yet)" {
		t.Errorf("unborn: got %q, %v", h.String(), err)
	}
	f.write("a", "1")
	f.commit("first")
	f.git("checkout", "-q", "--detach")
	id := strings.TrimSpace(f.git("rev-parse", "--short=7", "HEAD"))
	if h, err := r.Head(); err != nil || !h.Unborn {
		t.Errorf("a Repo is a snapshot: HEAD read again as %q, %v", h.String(), err)
	}
	if r, err = Open(f.dir); err != nil {
		t.Fatal(err)
	}
	if h, err := r.Head(); err != nil || h.String() != "(detached HEAD at "+id+")" {
		t.Errorf("detached: got %q, %v", h.String(), err)
	}
}

func TestOpenOutsideRepositoryIsGitsError(t *testing.T) {
	isolateGit(t)
	_, err := Open(t.TempDir())
	if err != ErrNotRepository {
		t.Fatalf("got %v, want %v", err, ErrNotRepository)
	}
}

// Repository features the fast path reads itself, each compared with git.
// nestedRepo makes a repository of its own at dir, holding one file.
func (f *fixture) nestedRepo(dir string) {
	f.write(dir+"/w.txt", "w")
	if out, err := exec.Command("git", "init", "-q", f.path(dir)).CombinedOutput(); err != nil {
		f.t.Fatalf("%v %s", err, out)
	}
}

func TestRepositoryFeaturesMatchGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture) (dir string)
	}{
		{"index version 4", func(f *fixture) string {
			f.write("dir/a.txt", "a")
			f.write("dir/b.txt", "b")
			f.write("dir/sub/c.txt", "c")
			f.commit("first")
			f.git("update-index", "--index-version", "4")
			f.write("dir/b.txt", "changed")
			f.write("dir/new.txt", "n")
			return f.dir
		}},
		{"index version 4 strips 128 bytes and more of a long name", func(f *fixture) string {
			// The stripped length is git's varint, which LEB128 misreads
			// from 128 on ("index file is corrupt").
			long := strings.Repeat("d", 150)
			f.write(long+"/a/f.txt", "a")
			f.write(long+"/b/g.txt", "b")
			f.write("short.txt", "s")
			f.commit("first")
			f.git("update-index", "--index-version", "4")
			f.write(long+"/b/g.txt", "changed")
			return f.dir
		}},
		{"core.quotePath=false", func(f *fixture) string {
			f.write("café.txt", "a")
			f.write("tab\there.txt", "t")
			f.commit("first")
			f.write("café.txt", "changed")
			f.write("über neu.txt", "n")
			f.git("config", "core.quotePath", "false")
			return f.dir
		}},
		{"commit messages in ISO-8859-1 and Windows-1252", func(f *fixture) string {
			for _, enc := range []struct{ name, msg string }{{"ISO-8859-1", "caf\xe9 cr\xe8me"}, {"windows-1252", "\x93quoted\x94 \x80 price"}} {
				f.write("../msg", enc.msg+"\n")
				f.write(enc.name+".txt", enc.name)
				f.git("add", "-A")
				f.git("-c", "i18n.commitEncoding="+enc.name, "commit", "-q", "-F", "../msg")
			}
			return f.dir
		}},
		{"core.abbrev=12", func(f *fixture) string {
			f.commit("first")
			f.commit("second")
			f.git("config", "core.abbrev", "12")
			return f.dir
		}},
		{"core.abbrev=no", func(f *fixture) string {
			f.commit("first")
			f.git("config", "core.abbrev", "no")
			return f.dir
		}},
		{"an untracked directory whose .git is junk is walked as any other", func(f *fixture) string {
			f.write("a.txt", "a")
			f.write(".gitignore", "*.log\n")
			f.commit("first")
			f.write("junkfile/.git", "not a repository\n")
			f.write("junkfile/y.txt", "y")
			f.write("ignoredonly/.git", "gitdir: /nowhere\n")
			f.write("ignoredonly/x.log", "x")
			os.MkdirAll(f.path("emptygit/.git"), 0o755)
			f.write("emptygit/z.log", "z")
			f.nestedRepo("nested")
			return f.dir
		}},
		{"the same, every untracked file shown", func(f *fixture) string {
			f.write("a.txt", "a")
			f.commit("first")
			f.git("config", "status.showUntrackedFiles", "all")
			f.write("junkfile/.git", "not a repository\n")
			f.write("junkfile/y.txt", "y")
			f.nestedRepo("nested")
			return f.dir
		}},
		{"a replace ref stands for the commit it replaces", func(f *fixture) string {
			f.write("a.txt", "a")
			f.commit("first")
			f.write("a.txt", "b")
			f.commit("second")
			f.write("a.txt", "c")
			f.commit("third")
			f.git("replace", "HEAD~1", "HEAD~2")
			return f.dir
		}},
		{"a graft gives a commit other parents", func(f *fixture) string {
			f.write("a.txt", "a")
			f.commit("first")
			f.write("a.txt", "b")
			f.commit("second")
			f.write("a.txt", "c")
			f.commit("third")
			head := strings.TrimSpace(f.git("rev-parse", "HEAD"))
			f.write(".git/info/grafts", head+"\n")
			return f.dir
		}},
		{"a staged type change is T, not M", func(f *fixture) string {
			f.write("link", "target\n")
			f.write("target", "t\n")
			f.commit("first")
			os.Remove(f.path("link"))
			if err := os.Symlink("target", f.path("link")); err != nil {
				t.Fatal(err)
			}
			f.git("add", "link")
			return f.dir
		}},
		{"a both-added conflict (AA)", func(f *fixture) string {
			f.write("base.txt", "b\n")
			f.commit("base")
			f.git("checkout", "-q", "-b", "other")
			f.write("both.txt", "theirs\n")
			f.commit("theirs")
			f.git("checkout", "-q", "main")
			f.write("both.txt", "ours\n")
			f.commit("ours")
			f.gitMayFail("merge", "-q", "other")
			return f.dir
		}},
		{"core.fileMode false ignores the executable bit", func(f *fixture) string {
			f.write("tool.sh", "echo\n")
			f.write("staged.sh", "echo\n")
			f.write("other.txt", "o")
			f.commit("first")
			f.git("config", "core.fileMode", "false")
			os.Chmod(f.path("tool.sh"), 0o755)
			f.write("other.txt", "changed")
			// Staged, then put back as HEAD has it but executable: git diff
			// HEAD does not list it when the bit does not count.
			f.write("staged.sh", "echo 2\n")
			f.git("add", "staged.sh")
			f.write("staged.sh", "echo\n")
			os.Chmod(f.path("staged.sh"), 0o755)
			return f.dir
		}},
		{"linked worktree", func(f *fixture) string {
			f.write("a.txt", "a")
			f.commit("first")
			wt := filepath.Join(t.TempDir(), "wt")
			f.git("worktree", "add", "-q", "-b", "side", wt)
			os.WriteFile(filepath.Join(wt, "a.txt"), []byte("changed in the worktree"), 0o644)
			os.WriteFile(filepath.Join(wt, "new.txt"), []byte("n"), 0o644)
			return wt
		}},
		{"objects borrowed through alternates", func(f *fixture) string {
			f.write("a.txt", "a")
			f.commit("first")
			f.git("tag", "v1")
			f.git("gc", "-q")
			clone := filepath.Join(t.TempDir(), "clone")
			f.git("clone", "-q", "--shared", f.dir, clone)
			os.WriteFile(filepath.Join(clone, "a.txt"), []byte("changed"), 0o644)
			return clone
		}},
		{"split index", func(f *fixture) string {
			for i := 0; i < 30; i++ {
				f.write(fmt.Sprintf("dir%d/f%02d.txt", i%3, i), fmt.Sprint(i))
			}
			f.commit("first")
			f.git("update-index", "--split-index") // everything goes to the shared index
			// Replaced, deleted and added entries of the shared index.
			f.write("dir1/f01.txt", "replaced entry")
			f.git("add", "dir1/f01.txt")
			f.git("rm", "-q", "--cached", "dir2/f02.txt", "dir0/f09.txt")
			f.write("new.txt", "added entry")
			f.git("add", "new.txt")
			f.write("dir0/f03.txt", "modified in the work tree")
			os.Remove(f.path("dir1/f04.txt"))
			f.write("untracked.txt", "u")
			return f.dir
		}},
		{"split index without a shared index yet", func(f *fixture) string {
			f.git("config", "core.splitIndex", "true")
			f.write("a.txt", "a")
			f.git("add", "a.txt")
			f.write("a.txt", "changed")
			return f.dir
		}},
		{"skip-worktree entries", func(f *fixture) string {
			f.write("kept.txt", "k")
			f.write("skipped.txt", "s")
			f.commit("first")
			f.git("update-index", "--skip-worktree", "skipped.txt")
			os.Remove(f.path("skipped.txt"))
			f.write("kept.txt", "changed")
			return f.dir
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			dir := tt.setup(f)
			assertMatchesGit(t, &fixture{t: t, dir: dir}, "")
		})
	}
}

func TestUnreadableFeaturesAreRefusedClearly(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
		want  string
	}{
		{"SHA-256 repository", func(f *fixture) {
			os.RemoveAll(filepath.Join(f.dir, ".git"))
			f.git("init", "-q", "--object-format=sha256")
		}, "this repository uses SHA-256 object names, which session-hooks cannot read"},
		{"index extension a newer git requires", func(f *fixture) {
			f.write("a.txt", "a")
			f.commit("first")
			b, err := os.ReadFile(f.path(".git/index"))
			if err != nil {
				t.Fatal(err)
			}
			// Lower-case extension names must be understood by a reader.
			body := append(b[:len(b)-20:len(b)-20], "zzzz\x00\x00\x00\x00"...)
			os.WriteFile(f.path(".git/index"), withChecksum(body), 0o644)
		}, `fatal: the index uses index extension "zzzz", which session-hooks cannot read`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			res, _ := Run(context.Background(), f.dir, []Probe{StatusShort})
			if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), tt.want) {
				t.Errorf("got %v, want %q", res[0].Err, tt.want)
			}
		})
	}
}

func TestSubjectsLoseControlCharacters(t *testing.T) {
	tests := map[string]string{
		"plain subject":                       "plain subject",
		"red \x1b[31malert\x1b[0m here":       "red [31malert[0m here",
		"bell\x07 and \u009b c1":              "bell and  c1",
		"raw byte \x9b":                       "raw byte \uFFFD",
		"bad \xff utf-8":                      "bad \uFFFD utf-8",
		"first line\nsecond line\n\nbody\x1b": "first line second line",
		"\n\n  \ntabs\tstay":                  "tabs\tstay",
	}
	for msg, want := range tests {
		if got := subject(msg); got != want {
			t.Errorf("subject(%q) = %q, want %q", msg, got, want)
		}
	}
}

func TestShallowCloneLogStopsAtTheBoundaryAsGitDoes(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 6; i++ {
		f.write("a.txt", strings.Repeat("x", i))
		f.commit(fmt.Sprintf("commit %d", i))
	}
	for _, depth := range []string{"1", "2"} {
		clone := filepath.Join(t.TempDir(), "shallow")
		f.git("clone", "-q", "--depth", depth, "file://"+f.dir, clone)
		assertMatchesGit(t, &fixture{t: t, dir: clone}, "")
	}
}

func TestBareRepositoryHasHistoryButNoStatus(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a")
	f.commit("first")
	bare := filepath.Join(t.TempDir(), "repo.git")
	f.git("clone", "-q", "--bare", f.dir, bare)
	res, engine := Run(context.Background(), bare, []Probe{Branch, Log(5, true), StatusShort})
	if res[0].Err != nil || res[0].Lines[0] != "main" {
		t.Errorf("branch: %+v", res[0])
	}
	want := lines(f.gitIn(bare, "log", "--oneline", "-5", "--decorate"))
	if res[1].Err != nil || strings.Join(res[1].Lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("log: %+v, want %q", res[1], want)
	}
	if !errors.Is(res[2].Err, ErrNoWorkTree) {
		t.Errorf("status: %v", res[2].Err)
	}
	if !strings.Contains(engine, "no work tree") {
		t.Errorf("engine %q", engine)
	}
}

// withChecksum appends an index body's trailing SHA-1.
func withChecksum(body []byte) []byte {
	sum := sha1.Sum(body)
	return append(append([]byte(nil), body...), sum[:]...)
}
