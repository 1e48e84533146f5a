package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestARepositoryPathLeadingOutOfTheProjectIsRefused(t *testing.T) {
	for _, p := range []string{"/etc/passwd", "/proc/self/environ", "../../home/u/.netrc", "..", "a/../../b",
		`..\..\x`, `C:\Users\u\.netrc`, `\\server\share\x`, "~/.pgpass", "~", "", "  ", "a\x00b"} {
		if r, err := ParseRel(p); err == nil {
			t.Errorf("ParseRel(%q) = %q, want an error", p, r)
		}
	}
	for p, want := range map[string]Rel{"feature_list.json": "feature_list.json", "./docs/../notes/p.md": "notes/p.md",
		`docs\progress.txt`: "docs/progress.txt", "a/b/": "a/b"} {
		if r, err := ParseRel(p); err != nil || r != want {
			t.Errorf("ParseRel(%q) = %q, %v; want %q", p, r, err, want)
		}
	}
}

func TestALinkLeadingOutOfTheProjectIsNotFollowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	home := t.TempDir()
	secret := filepath.Join(home, ".netrc")
	os.WriteFile(secret, []byte("machine x password canary"), 0o600)
	project := filepath.Join(home, "proj")
	os.MkdirAll(filepath.Join(project, "docs"), 0o755)
	os.WriteFile(filepath.Join(project, "docs", "in.md"), []byte("inside"), 0o644)
	os.Symlink(secret, filepath.Join(project, "progress.txt"))
	os.Symlink("..", filepath.Join(project, "up"))
	os.Symlink("docs/in.md", filepath.Join(project, "inner.md"))
	for _, rel := range []Rel{"progress.txt", "up/.netrc", "up/proj/up/.netrc"} {
		b, err := ReadIn(project, rel, 1<<20)
		if !errors.Is(err, ErrOutside) || strings.Contains(string(b), "canary") {
			t.Errorf("ReadIn(%s) = %q, %v; want ErrOutside", rel, b, err)
		}
		if _, err := StatIn(project, rel); !errors.Is(err, ErrOutside) {
			t.Errorf("StatIn(%s) = %v; want ErrOutside", rel, err)
		}
	}
	// A converted Rel is checked again.
	if _, err := ReadIn(project, Rel("../.netrc"), 1<<20); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadIn(../.netrc) = %v", err)
	}
	if b, err := ReadIn(project, "inner.md", 1<<20); err != nil || string(b) != "inside" {
		t.Errorf("a link inside the project: %q, %v", b, err)
	}
	if _, err := StatIn(project, "missing"); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
	if _, err := ReadIn(project, "docs", 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
}

func TestANameWindowsReadsAsAnotherIsRefusedByTheCheck(t *testing.T) {
	for _, p := range []string{"notes.md:secret", "a/CON", "nul.txt", "COM1", "lpt9.log", "progress.txt.", "x /y", `a|b`, "GIT~1/config"} {
		if ntfsSafe(p) == nil {
			t.Errorf("ntfsSafe(%q) = nil", p)
		}
	}
	for _, p := range []string{"claude-progress.txt", "docs/notes.md", "console.log", "com10", "a.b.c"} {
		if err := ntfsSafe(p); err != nil {
			t.Errorf("ntfsSafe(%q) = %v", p, err)
		}
	}
}

func TestAFileOfExactlyTheCapIsReadAndOneByteMoreIsNot(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("12345"), 0o644)
	if b, err := ReadIn(dir, "f", 5); err != nil || string(b) != "12345" {
		t.Errorf("a file of the cap: %q, %v", b, err)
	}
	if _, err := ReadIn(dir, "f", 4); err == nil || !strings.Contains(err.Error(), "is over") {
		t.Errorf("a file one byte over the cap: %v", err)
	}
}

// Elsewhere than Windows a colon or a trailing dot is an ordinary name.
func TestANameOnlyWindowsReadsOtherwiseIsAcceptedElsewhere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses them")
	}
	for _, p := range []string{"notes:2025.md", "v1.", "CON"} {
		if _, err := ParseRel(p); err != nil {
			t.Errorf("ParseRel(%q) = %v", p, err)
		}
	}
}

// A hook keeps its project open for the run: every read after the first
// opens only the file (on a slow file system each open is a wait), and
// still refuses a link out. Without KeepRoots nothing stays open.
func TestKeptRootsServeEveryReadOfARunAndStillConfine(t *testing.T) {
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "a.md"), []byte("a"), 0o644)
	os.Symlink(filepath.Join(t.TempDir()), filepath.Join(project, "out"))
	if _, err := ReadIn(project, "a.md", 10); err != nil || len(dirs.open)+len(roots.open) != 0 {
		t.Fatalf("before KeepRoots: %v, kept %d %d", err, len(dirs.open), len(roots.open))
	}
	KeepRoots()
	t.Cleanup(func() {
		roots.Lock()
		roots.keep = false
		for p, r := range roots.open {
			r.Close()
			delete(roots.open, p)
		}
		roots.Unlock()
		forgetDirs()
	})
	for range 2 {
		if b, err := ReadIn(project, "a.md", 10); err != nil || string(b) != "a" {
			t.Errorf("ReadIn = %q, %v", b, err)
		}
		if _, err := ReadIn(project, "out/x", 10); !errors.Is(err, ErrOutside) {
			t.Errorf("through a link out: %v", err)
		}
	}
	if len(dirs.open)+len(roots.open) != 1 {
		t.Errorf("kept %d directories and %d roots; want the project once", len(dirs.open), len(roots.open))
	}
}
