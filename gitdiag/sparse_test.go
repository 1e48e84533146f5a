package gitdiag

import (
	"os"
	"slices"
	"testing"
)

func TestSparseCheckoutsMatchGit(t *testing.T) {
	tests := []struct {
		name  string
		index string // "sparse" for a sparse index
		setup func(f *fixture)
	}{
		{"clean", "sparse", func(f *fixture) {}},
		{"HEAD moved: staged changes inside sparse directories", "sparse", func(f *fixture) {
			f.git("reset", "-q", "--soft", "HEAD~1")
		}},
		{"files on disk inside sparse directories", "sparse", func(f *fixture) {
			f.write("out/x.txt", "untracked\n")
			f.write("other/o.txt", "changed\n")
		}},
		{"change inside the cone", "sparse", func(f *fixture) {
			f.write("in/a.txt", "changed\n")
			f.write("in/new.txt", "new\n")
			f.git("add", "in/new.txt")
			f.write("top.txt", "changed\n")
		}},
		{"full index: HEAD moved", "full", func(f *fixture) {
			f.git("reset", "-q", "--soft", "HEAD~1")
		}},
		{"full index: skip-worktree files present on disk", "full", func(f *fixture) {
			f.write("out/b.txt", "changed\n")
			f.write("out/deep/c.txt", "c\n") // as checked in: clean
			f.write("out/x.txt", "untracked\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("in/a.txt", "a\n")
			f.write("out/b.txt", "b\n")
			f.write("out/deep/c.txt", "c\n")
			f.write("other/o.txt", "o\n")
			f.write("top.txt", "top\n")
			f.commit("first")
			f.write("out/b.txt", "b2\n")
			f.write("out/new.txt", "new\n")
			f.write("other/deep/o2.txt", "o2\n")
			f.commit("second")
			f.git("sparse-checkout", "set", "--cone", "in")
			if tt.index == "sparse" {
				f.git("config", "index.sparse", "true")
				f.git("sparse-checkout", "reapply")
				if out := f.git("ls-files", "--sparse"); !slices.Contains(lines(out), "out/") {
					t.Fatalf("the index is not sparse:\n%s", out)
				}
			}
			if _, err := os.Stat(f.path("out")); err == nil {
				t.Fatal("out/ is still checked out")
			}
			tt.setup(f)
			assertMatchesGit(t, f, "")
		})
	}
}
