package gitdiag

import (
	"os"
	"testing"
)

// core.ignoreCase is set in every repository on macOS and Windows. On this
// case-sensitive file system git, like gitdiag, then finds a file renamed
// in case only by its index name nowhere (deleted), and does not call the
// new name untracked.
func TestIgnoreCaseMatchesGit(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
	}{
		{"file renamed in case only", func(f *fixture) {
			os.Rename(f.path("readme.md"), f.path("README.md"))
		}},
		{"directory renamed in case only, with a new file", func(f *fixture) {
			os.Rename(f.path("src"), f.path("Src"))
			f.write("Src/new.go", "package src\n")
			f.write("Src/Sub/new.go", "package sub\n")
			f.write("Src/fresh/a.go", "package fresh\n")
		}},
		{"a second name differing in case", func(f *fixture) {
			f.write("README.MD", "another file\n")
			f.write("src/Main.go", "another file\n")
			f.write("src/main.go", "changed\n")
		}},
		{"ignore patterns in another case", func(f *fixture) {
			f.write(".gitignore", "*.LOG\nBuild/\n/TMP\n")
			f.write("debug.log", "l\n")
			f.write("build/out.o", "o\n")
			f.write("tmp", "t\n")
			f.write("src/trace.Log", "l\n")
		}},
		{"attributes in another case", func(f *fixture) {
			f.write(".gitattributes", "*.BAT text eol=crlf\n")
			f.write("run.bat", "echo\n")
			f.commit("batch file")
			f.checkoutAgain("run.bat")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.write("readme.md", "r\n")
			f.write("src/main.go", "package main\n")
			f.write("src/sub/util.go", "package sub\n")
			f.commit("first")
			f.git("config", "core.ignoreCase", "true")
			tt.setup(f)
			assertMatchesGit(t, f, "")
		})
	}
}
