package index

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestUntrackedCacheDecodesWhatGitWrote(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=F", "GIT_AUTHOR_EMAIL=f@e", "GIT_COMMITTER_NAME=F", "GIT_COMMITTER_EMAIL=f@e")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p string) {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644)
	}
	run("init", "-q")
	for _, p := range []string{"a/f", "a/b/g", "c/h"} {
		write(p)
	}
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.log\n"), 0o644)
	run("add", ".")
	run("commit", "-qm", "one")
	for _, p := range []string{"a/new", "d/e/w", "a/x.log"} {
		write(p)
	}
	run("config", "core.untrackedCache", "true")
	run("status", "--porcelain")
	// The directories are racily clean until the index is newer than them:
	// the second status records their stat data.
	time.Sleep(1100 * time.Millisecond)
	run("status", "--porcelain")

	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	uc, err := idx.UntrackedCache()
	if err != nil || uc == nil {
		t.Fatalf("UntrackedCache() = %v, %v", uc, err)
	}
	if len(uc.Idents) != 1 || !strings.HasPrefix(uc.Idents[0], "Location ") || !strings.Contains(uc.Idents[0], ", system ") {
		t.Errorf("idents %q", uc.Idents)
	}
	if uc.DirFlags != DirShowOtherDirectories|DirHideEmptyDirectories || uc.ExcludePerDir != ".gitignore" {
		t.Errorf("flags %#x, per-directory file %q", uc.DirFlags, uc.ExcludePerDir)
	}
	root := uc.Root
	if root == nil || root.Name != "" || !root.Valid || root.CheckOnly || root.ExcludeHash.IsZero() {
		t.Fatalf("root %+v", root)
	}
	if !slices.Equal(root.Untracked, []string{"d/"}) {
		t.Errorf("root's untracked %q, want d/", root.Untracked)
	}
	byName := map[string]*UntrackedDir{}
	var visit func(d *UntrackedDir)
	visit = func(d *UntrackedDir) {
		byName[d.Name] = d
		for _, s := range d.Dirs {
			visit(s)
		}
	}
	visit(root)
	if a := byName["a"]; a == nil || !slices.Equal(a.Untracked, []string{"new"}) || !a.Valid || a.CheckOnly || !a.ExcludeHash.IsZero() {
		t.Errorf("a: %+v", a)
	}
	if d := byName["d"]; d == nil || !d.CheckOnly {
		t.Errorf("d, an untracked directory, is read only to check it: %+v", d)
	}
	st, _ := os.Lstat(filepath.Join(dir, "a"))
	if a := byName["a"]; a != nil && int64(a.Stat.MtimeSec) != st.ModTime().Unix() {
		t.Errorf("a's recorded mtime %d, the directory's %d", a.Stat.MtimeSec, st.ModTime().Unix())
	}
}

func TestUntrackedCacheRefusesMalformedExtensions(t *testing.T) {
	for _, b := range [][]byte{
		{},
		{0},
		{5, 'a', 0},     // idents longer than the extension
		{1, 0, 1, 2, 0}, // header too short
	} {
		if uc, err := decodeUntracked(b); err == nil {
			t.Errorf("decodeUntracked(%q) = %+v, want an error", b, uc)
		}
	}
}

// gitVarint appends v as git's varint.c writes it.
func gitVarint(b []byte, v uint64) []byte {
	var buf [16]byte
	i := len(buf) - 1
	buf[i] = byte(v & 127)
	for v >>= 7; v > 0; v >>= 7 {
		v--
		i--
		buf[i] = 128 | byte(v&127)
	}
	return append(b, buf[i:]...)
}

// Counts are charged to one budget before anything is allocated for them:
// checked only against the bytes left, a 57 MB extension of one-byte names
// and empty directories asked for 982 MB. Past the budget the extension is
// refused, as git ignores one it cannot read; one of a real size is read.
func TestUntrackedCacheCountsAreBoundedBeforeAllocating(t *testing.T) {
	extension := func(names, dirs int) []byte {
		b := []byte{0}                                  // no idents
		b = append(b, make([]byte, 2*statSize+4+40)...) // header
		b = append(b, 0)                                // per-directory file name ""
		b = gitVarint(b, uint64(1+dirs))                // directories, the root included
		b = gitVarint(b, uint64(names))
		b = gitVarint(b, uint64(dirs))
		b = append(b, 0) // the root's name
		for i := 0; i < names; i++ {
			b = append(b, 'a', 0)
		}
		for i := 0; i < dirs; i++ {
			b = append(b, 0, 0, 'd', 0)
		}
		for i := 0; i < 3; i++ { // three empty EWAH bitmaps
			b = append(b, make([]byte, 12)...)
		}
		return append(b, 0)
	}
	for _, tt := range []struct {
		name        string
		names, dirs int
		read        bool
	}{
		{"a real work tree's", 20_000, 5_000, true},
		{"millions of names", 3_000_000, 0, false},
		{"a million directories", 0, 1_000_000, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := extension(tt.names, tt.dirs)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			uc, err := decodeUntracked(b)
			runtime.ReadMemStats(&after)
			if got := err == nil && len(uc.Root.Untracked) == tt.names && len(uc.Root.Dirs) == tt.dirs; got != tt.read {
				t.Errorf("read %v (%v); want %v", got, err, tt.read)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > untrackedBudget+uint64(len(b)) {
				t.Errorf("decoding %d KiB allocated %d MiB", len(b)>>10, got>>20)
			}
		})
	}
}
