package gitdiag

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestAheadBehindMatchesGitRevListLeftRightCount(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
	}{
		{"even with its upstream", func(f *fixture) {}},
		{"ahead by two", func(f *fixture) {
			f.commit("mine 1")
			f.commit("mine 2")
		}},
		{"behind by three", func(f *fixture) {
			f.git("checkout", "-q", "-b", "other")
			f.commit("theirs 1")
			f.commit("theirs 2")
			f.commit("theirs 3")
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("checkout", "-q", "main")
		}},
		{"diverged with a merge on each side", func(f *fixture) {
			f.git("checkout", "-q", "-b", "up")
			f.commit("up 1")
			f.git("checkout", "-q", "-b", "side")
			f.commit("side 1")
			f.git("checkout", "-q", "up")
			f.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("checkout", "-q", "main")
			f.commit("mine 1")
			f.git("merge", "-q", "--no-ff", "-m", "merge side here too", "side")
			f.commit("mine 2")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.commit("base")
			f.trackOriginMain()
			tt.setup(f)
			want := strings.Join(strings.Fields(f.git("rev-list", "--left-right", "--count", "HEAD...origin/main")), " ")
			if _, got := aheadBehind(t, f.dir); got != want {
				t.Errorf("ahead behind = %s, git says %s", got, want)
			}
		})
	}
}

// A branch whose upstream is another local branch (branch.<name>.remote
// ".", as `git branch --track feature main` sets it): the upstream is that
// branch, named as git names it, and the counts are git's.
func TestAnUpstreamThatIsALocalBranchIsReadAsGitReadsIt(t *testing.T) {
	f := newFixture(t)
	f.commit("base")
	f.git("branch", "-q", "base")
	f.git("config", "branch.main.remote", ".")
	f.git("config", "branch.main.merge", "refs/heads/base")
	f.commit("mine 1")
	f.git("checkout", "-q", "base")
	f.commit("theirs 1")
	f.git("checkout", "-q", "main")
	wantName := strings.TrimSpace(f.git("rev-parse", "--abbrev-ref", "@{upstream}"))
	want := strings.Join(strings.Fields(f.git("rev-list", "--left-right", "--count", "HEAD...@{upstream}")), " ")
	if name, got := aheadBehind(t, f.dir); got != want || name != wantName {
		t.Errorf("upstream %q %s; git says %q %s", name, got, wantName, want)
	}
}

// aheadBehind is HEAD's upstream and "ahead behind" as gitdiag counts them.
func aheadBehind(t *testing.T, dir string) (upstream, counts string) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h, _ := r.Head()
	up, err := r.Upstream(h)
	if err != nil {
		t.Fatal(err)
	}
	ahead, behind, err := r.AheadBehind(context.Background(), h.Hash, up.Hash)
	if err != nil {
		t.Fatal(err)
	}
	return up.Name, fmt.Sprintf("%d %d", ahead, behind)
}
