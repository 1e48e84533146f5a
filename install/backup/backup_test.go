package backup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKeepSavesThePreviousVersionOutsideTheRepository(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	target := filepath.Join(t.TempDir(), "repo", ".claude", "settings.json")
	p, err := Keep(target, []byte("old"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "old" || !strings.HasPrefix(p, filepath.Join(cache, "session-hooks", "backups")) || fi.Mode().Perm() != 0o600 {
		t.Errorf("kept %q at %s (%v)", b, p, fi.Mode())
	}
	if !strings.Contains(filepath.Base(filepath.Dir(p)), "repo-settings.json-") {
		t.Errorf("the backup's folder %s does not say whose file it is", filepath.Dir(p))
	}
	other, _ := Keep(filepath.Join(t.TempDir(), "repo", ".claude", "settings.json"), []byte("x"), 0o644)
	if filepath.Dir(other) == filepath.Dir(p) {
		t.Error("two files of the same name share a backup folder")
	}
}

func TestMarksSayWhatInstallCreated(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	target := filepath.Join(t.TempDir(), "hooks.json")
	if CreatedByInstall(target) {
		t.Fatal("an unmarked file was created by install")
	}
	MarkCreated(target)
	if !CreatedByInstall(target) {
		t.Fatal("the mark was not kept")
	}
	UnmarkCreated(target)
	UnmarkCreated(target) // twice is harmless
	if CreatedByInstall(target) {
		t.Error("the mark outlived UnmarkCreated")
	}
}

func TestRemoveCreatedRemovesOnlyAnEmptyFileInstallCreated(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		marked  bool
		js      string
		removed bool
	}{
		{"created and empty", true, `{ "hooks": {} }`, true},
		{"created, holding the user's", true, `{"hooks": {}, "theme": "dark"}`, false},
		{"the user's, empty", false, `{}`, false},
	} {
		path := filepath.Join(dir, tc.name+".json")
		os.WriteFile(path, []byte(tc.js), 0o644)
		if tc.marked {
			MarkCreated(path)
		}
		removed, err := RemoveCreated(path, []byte(tc.js))
		_, statErr := os.Stat(path)
		if err != nil || removed != tc.removed || (statErr != nil) != tc.removed {
			t.Errorf("%s: removed %v (%v), file gone %v", tc.name, removed, err, statErr != nil)
		}
		if tc.removed && CreatedByInstall(path) {
			t.Errorf("%s: the mark outlived the file", tc.name)
		}
	}
}

func TestHoldsNothing(t *testing.T) {
	for js, want := range map[string]bool{"": true, "{}": true, "{\n  \"hooks\": {}\n}\n": true, `{"hooks":{"x":[]}}`: false, `{"a":1}`: false} {
		if got := HoldsNothing([]byte(js)); got != want {
			t.Errorf("HoldsNothing(%q) = %v, want %v", js, got, want)
		}
	}
}
