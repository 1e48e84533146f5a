package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteRemovesWhatAKilledRunLeftButNotAParallelWritersFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session-init.md")
	stale := filepath.Join(dir, TempPrefix("session-init.md")+"123")
	fresh := filepath.Join(dir, TempPrefix("session-init.md")+"456")
	other := filepath.Join(dir, TempPrefix("other.md")+"789")
	for _, p := range []string{stale, fresh, other} {
		os.WriteFile(p, []byte("partial"), 0o600)
	}
	old := time.Now().Add(-2 * StaleAfter)
	os.Chtimes(stale, old, old)
	os.Chtimes(other, old, old)
	if err := Write(path, []byte("whole"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "whole" {
		t.Errorf("content %q", b)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file was left")
	}
	for _, keep := range []string{fresh, other} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed", filepath.Base(keep))
		}
	}
}
