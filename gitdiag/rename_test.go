package gitdiag

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// lines of text, distinct per seed, for files whose similarity matters.
func textLines(seed, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line %d of file %d: %s\n", i, seed, strings.Repeat(string(rune('a'+(seed+i)%26)), 20))
	}
	return b.String()
}

func TestRenamesMatchGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
	}{
		{"git mv", func(f *fixture) {
			f.git("mv", "a.txt", "moved.txt")
		}},
		{"git mv into another directory, then edited", func(f *fixture) {
			f.git("mv", "a.txt", "docs/a.txt")
			f.write("docs/a.txt", textLines(1, 40)+"one more line\n")
		}},
		{"moved and edited, staged", func(f *fixture) {
			f.git("mv", "b.txt", "c.txt")
			f.write("c.txt", textLines(2, 30)+textLines(9, 5))
			f.git("add", "c.txt")
		}},
		{"moved and rewritten: not a rename", func(f *fixture) {
			f.git("mv", "b.txt", "c.txt")
			f.write("c.txt", textLines(7, 40))
			f.git("add", "c.txt")
		}},
		{"same base name preferred over better content", func(f *fixture) {
			f.git("rm", "-q", "--cached", "lib/util.go", "a.txt")
			f.write("pkg/util.go", textLines(3, 30)+textLines(8, 8))  // 79% of lib/util.go
			f.write("pkg/other.go", textLines(1, 40)+textLines(3, 1)) // nearly a.txt
			f.git("add", "pkg")
		}},
		{"two identical sources", func(f *fixture) {
			os.MkdirAll(f.path("x"), 0o755)
			os.MkdirAll(f.path("y"), 0o755)
			f.git("mv", "same1.txt", "x/same1.txt")
			f.git("mv", "same2.txt", "y/renamed.txt")
		}},
		{"empty file and symbolic link", func(f *fixture) {
			f.git("mv", "empty", "empty-moved")
			f.git("mv", "link", "link-moved")
		}},
		{"names that need quoting", func(f *fixture) {
			f.git("mv", "a.txt", "with space.txt")
		}},
		{"a rename git diff HEAD sees and git status does not", func(f *fixture) {
			f.git("rm", "-q", "--cached", "a.txt")
			os.Rename(f.path("a.txt"), f.path("new.txt"))
			f.write("new.txt", "staged content\n")
			f.git("add", "new.txt")
			f.write("new.txt", textLines(1, 40))
		}},
		{"status.renames=false", func(f *fixture) {
			f.git("config", "status.renames", "false")
			f.git("mv", "a.txt", "moved.txt")
		}},
		{"diff.renames=false, followed by status", func(f *fixture) {
			f.git("config", "diff.renames", "false")
			f.git("mv", "a.txt", "moved.txt")
		}},
		{"rename limit: exact renames only", func(f *fixture) {
			f.git("config", "diff.renameLimit", "1")
			f.git("mv", "a.txt", "moved.txt")
			f.git("mv", "b.txt", "c.txt")
			f.write("c.txt", textLines(2, 30)+textLines(9, 5))
			f.git("mv", "lib/util.go", "lib/util2.go")
			f.write("lib/util2.go", textLines(3, 30)+"x\n")
			f.git("add", "-A")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", textLines(1, 40))
			f.write("b.txt", textLines(2, 40))
			f.write("lib/util.go", textLines(3, 30))
			f.write("same1.txt", "same\n")
			f.write("same2.txt", "same\n")
			f.write("empty", "")
			os.Symlink("a.txt", f.path("link"))
			os.MkdirAll(f.path("docs"), 0o755)
			f.commit("first")
			tt.setup(f)
			assertMatchesGit(t, f, "")
		})
	}
}
