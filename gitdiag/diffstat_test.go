package gitdiag

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("config", "branch.main.remote", "origin")
			f.git("config", "branch.main.merge", "refs/heads/main")
			f.write("small.txt", "1\ntwo\n3\n4\n")
			f.write("big.txt", strings.Repeat("line\n", 300))
			f.write("a/very/long/directory/name/that/goes/on/and/on/until/it/must/be/cut/file.txt", "x\n")
			f.write("image.bin", "\x00\x01\x02binary")
			f.git("update-index", "--chmod=+x", "small.txt")
			f.git("rm", "-q", "gone.txt")
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
		{"upstream ahead of the merge base", "origin/main", func(f *fixture) {
			f.write("a.txt", "a\n")
			f.commit("base")
			f.git("checkout", "-q", "-b", "up")
			f.write("theirs.txt", "t\n")
			f.commit("upstream work")
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("checkout", "-q", "main")
			f.git("config", "branch.main.remote", "origin")
			f.git("config", "branch.main.merge", "refs/heads/main")
			f.write("mine.txt", "m\n")
			f.commit("my work")
		}},
		{"renames shown as git pairs them", "origin/main", func(f *fixture) {
			body := strings.Repeat("some line of text\n", 20)
			for _, p := range []string{"same.txt", "src/a/file.go", "lib/deep/x/y.c", "old/moved.md", "edit.txt",
				"gone.txt", "top.txt", "d/sub/f.txt", "caf\u00e9.txt"} {
				f.write(p, p+"\n"+body)
			}
			f.commit("base")
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("config", "branch.main.remote", "origin")
			f.git("config", "branch.main.merge", "refs/heads/main")
			for _, mv := range [][2]string{{"same.txt", "renamed.txt"}, {"src/a/file.go", "src/b/file.go"},
				{"lib/deep/x/y.c", "lib/x/y.c"}, {"old/moved.md", "new/place/moved.md"}, {"edit.txt", "edited.txt"},
				{"top.txt", "d/top.txt"}, {"d/sub/f.txt", "d/f.txt"}, {"caf\u00e9.txt", "cafe.txt"}} {
				os.MkdirAll(filepath.Join(f.dir, filepath.Dir(mv[1])), 0o755)
				f.git("mv", mv[0], mv[1])
			}
			f.write("edited.txt", "edit.txt\n"+body+"one more\n")
			f.git("rm", "-q", "gone.txt")
			f.write("unrelated.txt", "nothing like the others\n")
			f.commit("work")
		}},
		{"no renames with diff.renames off", "origin/main", func(f *fixture) {
			f.write("a.txt", strings.Repeat("text\n", 10))
			f.commit("base")
			f.git("update-ref", "refs/remotes/origin/main", "HEAD")
			f.git("config", "branch.main.remote", "origin")
			f.git("config", "branch.main.merge", "refs/heads/main")
			f.git("config", "diff.renames", "false")
			f.git("mv", "a.txt", "b.txt")
			f.commit("move")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			want := lines(f.git("diff", "--stat", tt.upstream+"...HEAD"))
			res := firstResult(Run(context.Background(), f.dir, []Probe{DiffStatUpstream}))
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			if res.Command != "git diff --stat "+tt.upstream+"...HEAD" {
				t.Errorf("command %q", res.Command)
			}
			compare(t, "diff --stat", want, res.Lines)
		})
	}
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
