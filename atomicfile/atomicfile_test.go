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

func TestWriteGivesTheFileTheModeAsked(t *testing.T) {
	for _, perm := range []os.FileMode{0o600, 0o644} {
		path := filepath.Join(t.TempDir(), "f")
		if err := Write(path, []byte("x"), Options{Perm: perm, Durable: true}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != perm {
			t.Errorf("mode %v, want %v (%v)", fi.Mode().Perm(), perm, err)
		}
	}
}

// A temporary file exactly StaleAfter old may still be a slow writer's:
// only older ones are removed.
func TestStaleMeansOlderThanStaleAfter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	now := time.Now().Truncate(time.Second)
	edge := filepath.Join(dir, TempPrefix("f")+"edge")
	older := filepath.Join(dir, TempPrefix("f")+"older")
	for p, age := range map[string]time.Duration{edge: StaleAfter, older: StaleAfter + time.Second} {
		os.WriteFile(p, nil, 0o600)
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	removeStale(path, now)
	if _, err := os.Stat(edge); err != nil {
		t.Error("a file exactly StaleAfter old was removed")
	}
	if _, err := os.Stat(older); err == nil {
		t.Error("an older one was left")
	}
}

// Listing the directory at every write cost a third of a small log
// write: a write that comes soon after the last one leaves the sweep to
// the first write StaleAfter after the one before it.
func TestWriteSweepsOnlyWhenThePreviousWriteIsOlderThanStaleAfter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session-init.md")
	stale := filepath.Join(dir, TempPrefix("session-init.md")+"123")
	os.WriteFile(stale, []byte("partial"), 0o600)
	old := time.Now().Add(-2 * StaleAfter)
	os.Chtimes(stale, old, old)
	os.WriteFile(path, []byte("written just now"), 0o600)
	if err := Write(path, []byte("again"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatal("a write right after another listed the directory")
	}
	lastWrite := time.Now().Add(-StaleAfter - time.Second)
	os.Chtimes(path, lastWrite, lastWrite)
	if err := Write(path, []byte("later"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the first write StaleAfter after the last left the stale temporary file")
	}
}

func TestWriteLeavesNoTemporaryFileBehind(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for range 3 {
		if err := Write(path, []byte("x"), Options{Perm: 0o600}); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 || names[0].Name() != "f" {
		t.Errorf("directory holds %v, want only f", names)
	}
}
