package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// An edit writes the change (keeping the previous version), shows it
// without writing on a dry run, leaves the file untouched when the change
// is refused, and removes a file install created, with its folder, once
// it holds nothing but the client's own bookkeeping.
func TestEditSettingsWritesShowsRefusesAndTakesBack(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), ".client", "settings.json")
	to := func(js string) func([]byte) (hookfile.Result, error) {
		return func([]byte) (hookfile.Result, error) {
			return hookfile.Result{Changed: true, JSON: []byte(js), Changes: []string{"+ x"}, Removed: 1}, nil
		}
	}
	var out strings.Builder
	if err := EditSettings(path, &out, true, to(`{"hooks":{"x":1}}`), nil); err != nil || !strings.Contains(out.String(), "nothing written") {
		t.Errorf("a dry run: %v %q", err, out.String())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a dry run wrote: %v", err)
	}
	if err := EditSettings(path, &out, false, to(`{"hooks":{"x":1}}`), nil); err != nil {
		t.Fatal(err)
	}
	if err := EditSettings(path, &out, false, func([]byte) (hookfile.Result, error) { return hookfile.Result{}, errors.New("bad") }, nil); err == nil ||
		!strings.Contains(err.Error(), "left untouched") {
		t.Errorf("a refused change: %v", err)
	}
	if err := EditSettings(path, &out, false, func([]byte) (hookfile.Result, error) { return hookfile.Result{}, nil }, nil); err != nil ||
		!strings.Contains(out.String(), "needs no change") {
		t.Errorf("no change: %v %q", err, out.String())
	}
	own := func([]byte) []byte { return []byte("{}") }
	out.Reset()
	if err := EditSettings(path, &out, false, to(`{"$version":4}`), own); err != nil || !strings.Contains(out.String(), "Removed the session-hooks entries (1)") {
		t.Errorf("taking back: %v %q", err, out.String())
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) || backup.CreatedByInstall(filepath.Dir(path)) {
		t.Errorf("the folder install made stays, or stays marked as install's: %v", err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"model":1}`), 0o600)
	out.Reset()
	if err := EditSettings(path, &out, false, to(`{"model":1,"hooks":{}}`), nil); err != nil || !strings.Contains(out.String(), "The previous version is kept as ") {
		t.Errorf("a change to the user's file: %v %q", err, out.String())
	}
}
