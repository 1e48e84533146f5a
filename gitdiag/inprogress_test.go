package gitdiag

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// gitStatusOperations reads the operations `git status` reports, in its
// own words, as the kinds InProgress uses, with the details it prints.
func gitStatusOperations(out string) []string {
	var ops []string
	if m := regexp.MustCompile(`You are currently rebasing branch '([^']*)' on '([^']*)'`).FindStringSubmatch(out); m != nil {
		done := regexp.MustCompile(`Last commands? done \((\d+) commands? done\)`).FindStringSubmatch(out)
		left := regexp.MustCompile(`Next commands? to do \((\d+) remaining commands?\)`).FindStringSubmatch(out)
		step := "?"
		if done != nil {
			n := atoi(done[1])
			rest := 0
			if left != nil {
				rest = atoi(left[1])
			}
			step = fmt.Sprintf("%d/%d", n, n+rest)
		}
		ops = append(ops, "rebase "+m[1]+" "+m[2]+" "+step)
	}
	if strings.Contains(out, "You are in the middle of an am session") {
		ops = append(ops, "am")
	}
	if strings.Contains(out, "git merge --abort") || strings.Contains(out, "you are still merging") {
		ops = append(ops, "merge")
	}
	if m := regexp.MustCompile(`You are currently cherry-picking commit ([0-9a-f]+)`).FindStringSubmatch(out); m != nil {
		ops = append(ops, "cherry-pick "+m[1])
	}
	if m := regexp.MustCompile(`You are currently reverting commit ([0-9a-f]+)`).FindStringSubmatch(out); m != nil {
		ops = append(ops, "revert "+m[1])
	}
	if strings.Contains(out, "Cherry-pick currently in progress.") {
		ops = append(ops, "cherry-pick ")
	}
	if strings.Contains(out, "Revert currently in progress.") {
		ops = append(ops, "revert ")
	}
	if m := regexp.MustCompile(`You are currently bisecting, started from branch '([^']*)'`).FindStringSubmatch(out); m != nil {
		ops = append(ops, "bisect "+m[1])
	}
	sort.Strings(ops)
	return ops
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

func ourOperations(ops []Operation) []string {
	var out []string
	for _, o := range ops {
		switch o.Kind {
		case "rebase":
			out = append(out, fmt.Sprintf("rebase %s %s %d/%d", o.Branch, o.Onto, o.Step, o.Steps))
		case "cherry-pick", "revert":
			out = append(out, o.Kind+" "+o.Commit)
		case "bisect":
			out = append(out, "bisect "+o.Branch)
		default:
			out = append(out, o.Kind)
		}
	}
	sort.Strings(out)
	return out
}

func TestInProgressMatchesGitStatus(t *testing.T) {
	conflict := func(f *fixture) {
		f.write("a.txt", "base\n")
		f.commit("base")
		f.git("checkout", "-q", "-b", "side")
		f.write("a.txt", "side\n")
		f.commit("side change")
		f.git("checkout", "-q", "main")
		f.write("a.txt", "main\n")
		f.commit("main change")
	}
	tests := []struct {
		name  string
		setup func(f *fixture)
		want  int // operations git reports
	}{
		{"nothing", func(f *fixture) { f.commit("base") }, 0},
		{"merge with a conflict", func(f *fixture) { conflict(f); f.gitMayFail("merge", "-q", "side") }, 1},
		{"rebase stopped at its first step of two", func(f *fixture) {
			conflict(f)
			f.git("checkout", "-q", "side")
			f.write("b.txt", "more\n")
			f.commit("second on side")
			f.gitMayFail("rebase", "-q", "main")
		}, 1},
		{"cherry-pick with a conflict", func(f *fixture) { conflict(f); f.gitMayFail("cherry-pick", "side") }, 1},
		{"revert with a conflict", func(f *fixture) {
			conflict(f)
			f.write("a.txt", "main again\n")
			f.commit("main again")
			f.gitMayFail("revert", "--no-edit", "HEAD~1")
		}, 1},
		{"bisect", func(f *fixture) {
			f.commit("one")
			f.commit("two")
			f.commit("three")
			f.git("bisect", "start")
			f.git("bisect", "bad")
			f.git("bisect", "good", "HEAD~2")
		}, 1},
		// A conflict resolved with git commit, not --continue: git status
		// still reports the sequence from sequencer/todo.
		{"a cherry-pick sequence left half done", func(f *fixture) {
			conflict(f)
			f.git("checkout", "-q", "side")
			f.write("b.txt", "more\n")
			f.commit("second on side")
			f.git("checkout", "-q", "main")
			f.gitMayFail("cherry-pick", "side~1", "side")
			f.write("a.txt", "resolved\n")
			f.git("add", "a.txt")
			f.git("commit", "-q", "--no-edit")
		}, 1},
		{"a revert sequence left half done", func(f *fixture) {
			conflict(f)
			f.write("a.txt", "main again\n")
			f.commit("main again")
			f.write("c.txt", "c\n")
			f.commit("c")
			f.gitMayFail("revert", "--no-edit", "HEAD~2", "HEAD")
			f.write("a.txt", "resolved\n")
			f.git("add", "a.txt")
			f.git("commit", "-q", "--no-edit")
		}, 1},
		{"bisect started from a detached HEAD", func(f *fixture) {
			f.commit("one")
			f.commit("two")
			f.commit("three")
			f.git("checkout", "-q", "--detach", "HEAD")
			f.git("bisect", "start")
			f.git("bisect", "bad")
			f.git("bisect", "good", "HEAD~2")
		}, 1},
		{"am with a conflict", func(f *fixture) {
			conflict(f)
			patch := f.git("format-patch", "-1", "--stdout", "side")
			f.write("../p.patch", patch)
			f.gitMayFail("am", "../p.patch")
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			want := gitStatusOperations(f.gitMayFailOutput("status"))
			if len(want) != tt.want {
				t.Fatalf("the setup left %d operations by git status: %q", len(want), want)
			}
			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := ourOperations(r.InProgress()); strings.Join(got, ";") != strings.Join(want, ";") {
				t.Errorf("got %q, git status says %q", got, want)
			}
		})
	}
}

func TestStashesAndWorktreesMatchGit(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "1\n")
	f.commit("base")
	for i, msg := range []string{"", "named stash", ""} {
		f.write("a.txt", fmt.Sprintf("change %d\n", i))
		if msg == "" {
			f.git("stash", "-q")
		} else {
			f.git("stash", "push", "-q", "-m", msg)
		}
	}
	f.git("worktree", "add", "-q", "-b", "wt-branch", f.dir+"-wt")
	f.git("worktree", "add", "-q", "--detach", f.dir+"-detached")
	f.git("worktree", "add", "-q", "-b", "gone-branch", f.dir+"-gone")
	os.RemoveAll(f.dir + "-gone") // its gitdir now points nowhere: prunable
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stashes, n := r.Stashes(2)
	want := strings.Split(strings.TrimSpace(f.git("stash", "list", "--format=%gs")), "\n")
	if n != len(want) || len(stashes) != 2 || stashes[0].Message != want[0] || stashes[1].Message != want[1] || stashes[0].Branch != "main" {
		t.Errorf("stashes %+v (%d), git says %q", stashes, n, want)
	}
	var got []string
	for _, w := range r.Worktrees() {
		got = append(got, w.Path+" "+w.Branch+" "+w.Prunable)
	}
	var wantWT []string
	for i, block := range strings.Split(strings.TrimSpace(f.git("worktree", "list", "--porcelain")), "\n\n") {
		if i == 0 {
			continue // the main work tree
		}
		path, branch, prunable := "", "", ""
		for _, line := range strings.Split(block, "\n") {
			if p, ok := strings.CutPrefix(line, "prunable "); ok {
				prunable = p
			}
			if p, ok := strings.CutPrefix(line, "worktree "); ok {
				path = p
			}
			if b, ok := strings.CutPrefix(line, "branch refs/heads/"); ok {
				branch = b
			}
		}
		wantWT = append(wantWT, path+" "+branch+" "+prunable)
	}
	sort.Strings(got)
	sort.Strings(wantWT)
	if strings.Join(got, ";") != strings.Join(wantWT, ";") {
		t.Errorf("worktrees %q, git says %q", got, wantWT)
	}
	if _, ok := r.MainWorktree(); ok {
		t.Errorf("the main worktree has no main worktree apart from itself")
	}
	linked, err := Open(f.dir + "-wt")
	if err != nil {
		t.Fatal(err)
	}
	defer linked.Close()
	main, ok := linked.MainWorktree()
	if !ok || !linked.IsRoot(f.dir+"-wt") || linked.IsRoot(f.dir) {
		t.Fatalf("from the linked worktree: main %+v %v", main, ok)
	}
	if fi, _ := os.Stat(main.Path); fi == nil || main.Branch != "main" {
		t.Errorf("main worktree %+v, want %s on main", main, f.dir)
	}
}

func TestUpstreamGoneMatchesGitStatus(t *testing.T) {
	f := newFixture(t)
	f.commit("base")
	f.trackOriginMain()
	f.git("config", "remote.origin.url", "/nowhere")
	f.git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
	r, _ := Open(f.dir)
	h, _ := r.Head()
	if _, gone := r.UpstreamGone(h); gone || strings.Contains(f.git("status", "-sb"), "[gone]") {
		t.Fatal("an upstream that exists was reported gone")
	}
	r.Close()
	f.git("update-ref", "-d", "refs/remotes/origin/main")
	if !strings.Contains(f.git("status", "-sb"), "[gone]") {
		t.Fatal("git does not say gone")
	}
	r, _ = Open(f.dir)
	defer r.Close()
	h, _ = r.Head()
	if name, gone := r.UpstreamGone(h); !gone || name != "origin/main" {
		t.Errorf("gone %v %q", gone, name)
	}
}

// sequence reads sequencer/todo as git's sequencer_get_last_command does:
// the first command names the sequence; comments and blank lines are not
// commands.
func TestASequencesTodoNamesItsKindAndWhatIsLeft(t *testing.T) {
	for _, tt := range []struct {
		todo, kind string
		left       int
	}{
		{"", "", 0},
		{"pick 1234567 one\npick 89abcde two\n", "cherry-pick", 2},
		{"\n# a comment\np\t1234567 one\n", "cherry-pick", 1},
		{"revert 1234567 one\n", "revert", 1},
		{"picked 1234567\n", "", 0},
		{"exec make\n", "", 0},
	} {
		if kind, left := sequence(tt.todo); kind != tt.kind || left != tt.left {
			t.Errorf("sequence(%q) = %q, %d; want %q, %d", tt.todo, kind, left, tt.kind, tt.left)
		}
	}
	o := Operation{Kind: "cherry-pick", Left: 2}
	if got := o.String(); got != "a cherry-pick is in progress, 2 commit(s) left to apply (git cherry-pick --continue)" {
		t.Errorf("said %q", got)
	}
	if got := (Operation{Kind: "revert", Commit: "1234567"}).String(); got != "a revert is in progress (commit 1234567)" {
		t.Errorf("a single revert said %q", got)
	}
}

// The upstream is the one git resolves, through the remote's fetch
// refspecs: a merge ref no refspec maps (refs/pull/7/head, as gh pr
// checkout leaves it) is no upstream and nothing gone; a refspec that maps
// elsewhere (refs/remotes/mirror/*) names that ref; a remote with no fetch
// refspec tracks nothing.
func TestTheUpstreamIsTheOneGitResolves(t *testing.T) {
	for _, tt := range []struct {
		name   string
		remote string
		merge  string
		fetch  []string
	}{
		{"a pull request's head", "origin", "refs/pull/7/head", []string{"+refs/heads/*:refs/remotes/origin/*"}},
		{"a refspec that maps elsewhere", "origin", "refs/heads/main", []string{"+refs/heads/*:refs/remotes/mirror/*"}},
		{"the first of two refspecs that map it", "origin", "refs/heads/main", []string{"+refs/heads/*:refs/remotes/origin/*", "+refs/heads/main:refs/remotes/pinned/main"}},
		{"an exact refspec", "up", "refs/heads/dev", []string{"refs/heads/dev:refs/remotes/up/dev"}},
		{"no refspec", "origin", "refs/heads/main", nil},
		{"the local branch", ".", "refs/heads/base", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.commit("base")
			f.git("branch", "base")
			for _, ref := range []string{"refs/remotes/origin/main", "refs/remotes/mirror/main", "refs/remotes/pinned/main", "refs/remotes/up/dev"} {
				f.git("update-ref", ref, "HEAD")
			}
			f.commit("work")
			f.git("config", "branch.main.remote", tt.remote)
			f.git("config", "branch.main.merge", tt.merge)
			for _, spec := range tt.fetch {
				f.git("config", "--add", "remote."+tt.remote+".fetch", spec)
			}
			want := ""
			cmd := exec.Command("git", "rev-parse", "--abbrev-ref", "@{u}")
			cmd.Dir = f.dir
			if out, err := cmd.Output(); err == nil {
				want = strings.TrimSpace(string(out))
			}
			r, err := Open(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			h, _ := r.Head()
			got := ""
			if up, err := r.Upstream(h); err == nil {
				got = up.Name
			}
			if want != "" && got != want || want == "" && got != "" && got != "origin/HEAD" {
				t.Errorf("upstream %q, git resolves %q", got, want)
			}
			if name, gone := r.UpstreamGone(h); gone {
				t.Errorf("%s said gone", name)
			}
		})
	}
}

// A refspec maps a ref as git's match_name_with_pattern does: the part
// before the star and the part after it must both fit, without overlap.
func TestARefspecMapsARefAsGitDoes(t *testing.T) {
	for _, tt := range []struct{ spec, ref, want string }{
		{"+refs/heads/*:refs/remotes/origin/*", "refs/heads/main", "refs/remotes/origin/main"},
		{"refs/heads/*:refs/remotes/origin/*", "refs/heads/a/b", "refs/remotes/origin/a/b"},
		{"+refs/heads/a*a:refs/remotes/o/*", "refs/heads/a", ""}, // the two parts would overlap
		{"+refs/heads/a*a:refs/remotes/o/x*y", "refs/heads/aba", "refs/remotes/o/xby"},
		{"refs/heads/main:refs/remotes/up/main", "refs/heads/main", "refs/remotes/up/main"},
		{"refs/heads/main:refs/remotes/up/main", "refs/heads/dev", ""},
		{"^refs/heads/main", "refs/heads/main", ""},
		{"refs/heads/*", "refs/heads/main", ""}, // no destination: fetched, not tracked
	} {
		got, ok := mapRefspec(tt.spec, tt.ref)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("mapRefspec(%q, %q) = %q, %v; want %q", tt.spec, tt.ref, got, ok, tt.want)
		}
	}
}
