package gitdiag

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// checkoutAgain writes the files back from the index, as git writes them
// (line endings, $Id$), and makes their stat data stale, so that status
// must hash them through the clean conversion.
func (f *fixture) checkoutAgain(paths ...string) {
	f.t.Helper()
	for _, p := range paths {
		os.Remove(f.path(p))
	}
	f.git(append([]string{"checkout", "--"}, paths...)...)
	f.touch(paths...)
}

// touch moves the files' mtime, so that their stat data no longer matches
// the index and git hashes them.
func (f *fixture) touch(paths ...string) {
	f.t.Helper()
	later := time.Now().Add(3 * time.Second)
	for _, p := range paths {
		if err := os.Chtimes(f.path(p), later, later); err != nil {
			f.t.Fatal(err)
		}
	}
}

// Files whose stat data does not settle their status are hashed after the
// conversion git applies on the way in, and `git diff HEAD` compares
// converted content (new line endings alone are no difference); each case
// is compared with git.
func TestConvertedFilesMatchGit(t *testing.T) {
	crlf := "one\r\ntwo\r\n"
	tests := []struct {
		name  string
		setup func(f *fixture)
	}{
		{"eol=crlf files written by git", func(f *fixture) {
			f.write(".gitattributes", "*.bat text eol=crlf\n")
			f.write("run.bat", "echo one\necho two\n")
			f.write("edited.bat", "a\nb\n")
			f.commit("first")
			f.checkoutAgain("run.bat", "edited.bat")
			f.write("edited.bat", "a\r\nc\r\n")
			f.touch("edited.bat")
		}},
		{"core.autocrlf=true", func(f *fixture) {
			f.write("a.txt", "a\nb\n")
			f.write("b.txt", "b\n")
			f.commit("first")
			f.git("config", "core.autocrlf", "true")
			f.checkoutAgain("a.txt", "b.txt")
		}},
		{"core.autocrlf=input and CRLF written over LF", func(f *fixture) {
			f.write("a.txt", "one\ntwo\n")
			f.write("b.txt", "one\ntwo\n")
			f.commit("first")
			f.git("config", "core.autocrlf", "input")
			f.write("a.txt", crlf) // a new size: modified for status, equal for diff
			f.write("b.txt", "one\r\ntwo\n")
		}},
		{"text=auto keeps CRLF files committed with CRLF", func(f *fixture) {
			f.write("dos.txt", crlf)
			f.commit("first")
			f.write(".gitattributes", "* text=auto\n")
			f.commit("attributes")
			f.touch("dos.txt")
		}},
		{"text=auto leaves binary files alone", func(f *fixture) {
			f.write(".gitattributes", "* text=auto\n")
			f.write("lone-cr.bin", "a\rb\r\n")
			f.write("nul.bin", "a\x00b\r\n")
			f.commit("first")
			f.touch("lone-cr.bin", "nul.bin")
		}},
		{"text converts even a file that looks binary", func(f *fixture) {
			f.write("data.txt", "a\x00b\n")
			f.commit("first")
			f.write(".gitattributes", "data.txt text\n")
			f.commit("attributes")
			f.write("data.txt", "a\x00b\r\n")
			f.touch("data.txt")
		}},
		{"binary macro and -text switch conversion off", func(f *fixture) {
			f.write(".gitattributes", "*.dat binary\n*.raw -text\n")
			f.write("a.dat", "a\nb\n")
			f.write("a.raw", "a\nb\n")
			f.commit("first")
			f.git("config", "core.autocrlf", "true")
			f.write("a.dat", "a\r\nb\n")
			f.write("a.raw", "a\nb\r\n")
		}},
		{"legacy crlf attribute", func(f *fixture) {
			f.write(".gitattributes", "*.in crlf=input\n*.no -crlf\n")
			f.write("a.in", "a\n")
			f.write("a.no", "a\n")
			f.commit("first")
			f.write("a.in", "a\r\n")
			f.write("a.no", "a\r\n")
		}},
		{"ident", func(f *fixture) {
			f.write(".gitattributes", "*.c ident\n")
			f.write("main.c", "/* $Id$ */\nint main;\n")
			f.write("broken.c", "/* $Id: not\nclosed $ */\n")
			f.commit("first")
			f.checkoutAgain("main.c", "broken.c")
		}},
		{"a subdirectory's attributes override the top's", func(f *fixture) {
			f.write(".gitattributes", "*.txt text eol=crlf\n")
			f.write("sub/.gitattributes", "*.txt -text\n")
			f.write("top.txt", "a\n")
			f.write("sub/low.txt", "a\n")
			f.commit("first")
			f.checkoutAgain("top.txt", "sub/low.txt")
			f.write("sub/low.txt", "a\r\n")
		}},
		{".git/info/attributes overrides the work tree", func(f *fixture) {
			f.write(".gitattributes", "*.txt -text\n")
			f.write("a.txt", "a\n")
			f.commit("first")
			f.write(".git/info/attributes", "*.txt text\n")
			f.write("a.txt", "a\r\n")
		}},
		{"core.attributesFile is below the work tree's files", func(f *fixture) {
			global := filepath.Join(t.TempDir(), "attributes")
			os.WriteFile(global, []byte("*.txt text\n*.md text\n"), 0o644)
			f.git("config", "--global", "core.attributesFile", global) // the user's: the repository's may not name a file outside it
			f.write(".gitattributes", "*.md -text\n")
			f.write("a.txt", "a\n")
			f.write("a.md", "a\n")
			f.commit("first")
			f.write("a.txt", "a\r\n")
			f.write("a.md", "a\r\n")
		}},
		{"macros from the top, not from subdirectories", func(f *fixture) {
			f.write(".gitattributes", "[attr]dos text eol=crlf\n*.top dos\n")
			f.write("sub/.gitattributes", "[attr]unix -text\n*.top unix\n")
			f.write("a.top", "a\n")
			f.write("sub/b.top", "b\n")
			f.commit("first")
			f.checkoutAgain("a.top", "sub/b.top")
		}},
		{"patterns: path, quoted, directory-only and negative", func(f *fixture) {
			f.write(".gitattributes", "docs/*.txt text eol=crlf\n\"with space.txt\" text eol=crlf\nbuild/ text eol=crlf\n!plain.txt text eol=crlf\n")
			f.write("docs/a.txt", "a\n")
			f.write("docs/deeper/b.txt", "b\n")
			f.write("with space.txt", "s\n")
			f.write("build/c.txt", "c\n")
			f.write("plain.txt", "p\n")
			f.commit("first")
			f.checkoutAgain("docs/a.txt", "docs/deeper/b.txt", "with space.txt", "build/c.txt", "plain.txt")
		}},
		{"the last matching line and the last assignment win", func(f *fixture) {
			f.write(".gitattributes", "*.txt text eol=crlf\na.txt -text\nb.txt -text text eol=crlf\nc.txt !text\n")
			f.write("a.txt", "a\n")
			f.write("b.txt", "b\n")
			f.write("c.txt", "c\n")
			f.commit("first")
			f.git("config", "core.autocrlf", "true")
			f.checkoutAgain("a.txt", "b.txt", "c.txt")
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

func TestEngineNamesConversionsItCannotApply(t *testing.T) {
	f := newFixture(t)
	f.write(".gitattributes", "*.secret filter=git-crypt\n*.utf16 working-tree-encoding=UTF-16LE\n*.txt text eol=crlf\n")
	f.write("a.secret", "plain\n")
	f.write("a.utf16", "t\x00x\x00\n\x00")
	f.write("a.txt", "text\n")
	f.commit("first")
	f.touch("a.txt")
	if _, engine := Run(context.Background(), f.dir, []Probe{StatusShort}); engine != "fast" {
		t.Errorf("line endings are applied, yet the engine is %q", engine)
	}
	f.touch("a.secret", "a.utf16")
	if _, engine := Run(context.Background(), f.dir, []Probe{StatusShort}); engine != "fast (not applied: working-tree-encoding; the files concerned may show as modified)" {
		t.Errorf("an unconfigured filter is no filter, as in git; engine %q", engine)
	}
	f.git("config", "filter.git-crypt.clean", "git-crypt clean")
	f.touch("a.secret")
	_, engine := Run(context.Background(), f.dir, []Probe{StatusShort})
	if !strings.HasPrefix(engine, "fast (not applied: the git-crypt filter, working-tree-encoding;") {
		t.Errorf("engine %q", engine)
	}
}

// git would run git-lfs's clean filter; gitdiag computes its pointer. The
// index holds the pointer the real git-lfs wrote for "hello\n"
// (format/lfs/testdata/text.want), as after `git lfs track` and `git add`.
func TestLFSFilesAreComparedByTheirPointer(t *testing.T) {
	f := newFixture(t)
	f.write(".gitattributes", "*.psd filter=lfs diff=lfs merge=lfs -text\n")
	f.git("add", ".gitattributes")
	pointer, err := filepath.Abs("format/lfs/testdata/text.want")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(f.git("hash-object", "-w", "--no-filters", pointer))
	f.git("update-index", "--add", "--cacheinfo", "100644,"+id+",image.psd")
	f.git("update-index", "--add", "--cacheinfo", "100644,"+id+",edited.psd")
	f.git("commit", "-q", "-m", "track with LFS")
	f.git("config", "filter.lfs.process", "git-lfs filter-process")
	f.git("config", "filter.lfs.clean", "git-lfs clean -- %f")
	f.git("config", "filter.lfs.required", "true")
	f.write("image.psd", "hello\n") // what git-lfs's smudge writes back
	f.write("edited.psd", "hellO\n")
	f.touch("image.psd", "edited.psd")

	res, engine := Run(context.Background(), f.dir, []Probe{StatusShort})
	compare(t, "status --short (by the pointers git-lfs recorded)", []string{" M edited.psd"}, res[0].Lines)
	if engine != "fast" {
		t.Errorf("engine %q: git-lfs's filter is applied", engine)
	}
	f.git("config", "lfs.extension.foo.clean", "foo clean %f")
	_, engine = Run(context.Background(), f.dir, []Probe{StatusShort})
	if !strings.HasPrefix(engine, "fast (not applied: the lfs filter;") {
		t.Errorf("engine %q: extensions run programs gitdiag cannot", engine)
	}
}
