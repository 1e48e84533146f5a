package install

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/backup"
)

// Every client's install writes through Save: a folder or a file that
// links out of the fence is not written through, whichever link it is,
// and what it leads to is left as it was.
func TestSaveRefusesALinkOutOfTheFence(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "settings.json"), []byte("{}"), 0o644)
	os.Symlink(outside, filepath.Join(root, ".gemini")) // a committed folder link
	os.MkdirAll(filepath.Join(root, ".github", "hooks"), 0o755)
	os.Symlink(filepath.Join(outside, "settings.json"), filepath.Join(root, ".github", "hooks", "session-hooks.json"))
	for _, path := range []string{filepath.Join(root, ".gemini", "settings.json"), filepath.Join(root, ".github", "hooks", "session-hooks.json")} {
		_, err := Save(path, Fence{Root: root}, []byte("{}"), true, []byte(`{"hooks":{}}`), 0o600)
		if err == nil || !strings.Contains(err.Error(), "outside "+root) {
			t.Errorf("%s: %v", path, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "settings.json")); string(b) != "{}" {
		t.Errorf("the file outside was written: %s", b)
	}
	// A file not there yet behind a linked folder: its folder's link is
	// what leads out.
	empty := t.TempDir()
	os.Symlink(empty, filepath.Join(root, ".qwen"))
	if _, err := Save(filepath.Join(root, ".qwen", "settings.json"), Fence{Root: root}, nil, false, []byte("{}"), 0o600); err == nil {
		t.Error("a new file behind a folder linked out was written")
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("%d files written outside", len(entries))
	}
	_, err := Save(filepath.Join(root, ".gemini", "settings.json"), Fence{Root: root, Hint: "pass --follow-symlinks to write there"}, nil, false, []byte("{}"), 0o600)
	if err == nil || !strings.HasSuffix(err.Error(), "(pass --follow-symlinks to write there)") {
		t.Errorf("the hint is not said: %v", err)
	}
}

// Inside the fence, Save keeps the previous version and the file's
// permissions, writes through a link that stays inside, and marks what
// it creates (the file and each folder it made) as install's.
func TestSaveKeepsTheOldVersionAndMarksWhatItCreates(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	path := filepath.Join(root, "settings.json")
	os.WriteFile(path, []byte("old"), 0o640)
	kept, err := Save(path, Fence{Root: root}, []byte("old"), true, []byte("new"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(kept); string(b) != "old" || kept == "" || strings.HasPrefix(kept, root) {
		t.Errorf("the previous version kept as %q: %q", kept, b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("the file's permissions became %v", fi.Mode().Perm())
	}
	os.Symlink(path, filepath.Join(root, "link.json"))
	if _, err := Save(filepath.Join(root, "link.json"), Fence{Root: root}, []byte("new"), true, []byte("newer"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "newer" {
		t.Errorf("a link inside the fence was not written through: %q", b)
	}
	made := filepath.Join(root, "a", "b", "c.json")
	if _, err := Save(made, Fence{Root: root}, nil, false, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{made, filepath.Dir(made), filepath.Dir(filepath.Dir(made))} {
		if !backup.CreatedByInstall(p) {
			t.Errorf("%s is not marked as install's", p)
		}
	}
	if backup.CreatedByInstall(root) {
		t.Error("a folder that was there is marked as install's")
	}
}

// A settings file another program saved while install waited (a
// permission the client recorded) is not written over: Save refuses and
// the change stays. Nor is a file created meanwhile.
func TestSaveRefusesAFileChangedSinceItWasRead(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	path := filepath.Join(root, "settings.json")
	os.WriteFile(path, []byte(`{"permissions":{"allow":["Bash(ls)"]}}`), 0o600)
	_, err := Save(path, Fence{Root: root}, []byte("{}"), true, []byte(`{"hooks":{}}`), 0o600)
	if err == nil || !strings.Contains(err.Error(), "changed while install ran") {
		t.Errorf("a file changed since it was read: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"permissions":{"allow":["Bash(ls)"]}}` {
		t.Errorf("the change was lost: %s", b)
	}
	created := filepath.Join(root, "new.json")
	os.WriteFile(created, []byte("{}"), 0o600)
	if _, err := Save(created, Fence{Root: root}, nil, false, []byte(`{"hooks":{}}`), 0o600); err == nil {
		t.Error("a file created since install found none was written over")
	}
}

// A settings file with other hard links is refused with a message: the
// rename would give this name the new settings and leave the others with
// the old, silently.
func TestSaveRefusesAHardLinkedFile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	path := filepath.Join(root, "settings.json")
	os.WriteFile(path, []byte("{}"), 0o600)
	if runtime.GOOS == "windows" {
		t.Skip("hard links are not counted on Windows")
	}
	if err := os.Link(path, filepath.Join(root, "other.json")); err != nil {
		t.Skip("no hard links here:", err)
	}
	_, err := Save(path, Fence{Root: root}, []byte("{}"), true, []byte(`{"hooks":{}}`), 0o600)
	if err == nil || !strings.Contains(err.Error(), "2 hard links") {
		t.Errorf("a hard-linked file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "other.json")); string(b) != "{}" {
		t.Errorf("the other name changed: %s", b)
	}
}
