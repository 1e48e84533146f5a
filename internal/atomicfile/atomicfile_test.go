package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// slot is the name of a file's temporary slot i.
func slot(dir, name string, i int) string {
	return filepath.Join(dir, TempPrefix(name)+strconv.Itoa(i))
}

func TestWriteTakesBackTheSlotAKilledRunLeftButNotAParallelWritersOne(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "session-init.md")
	fresh, stale := slot(dir, "session-init.md", 0), slot(dir, "session-init.md", 1)
	other := slot(dir, "other.md", 0)
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
		if b, _ := os.ReadFile(keep); string(b) != "partial" {
			t.Errorf("%s was taken: %q", filepath.Base(keep), b)
		}
	}
}

// A temporary file exactly StaleAfter old may still be a slow writer's:
// only older ones are taken back.
func TestStaleMeansOlderThanStaleAfter(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().Truncate(time.Second)
	edge, older := slot(dir, "f", 0), slot(dir, "f", 1)
	for p, age := range map[string]time.Duration{edge: StaleAfter, older: StaleAfter + time.Second} {
		os.WriteFile(p, []byte("partial"), 0o600)
		os.Chtimes(p, now.Add(-age), now.Add(-age))
	}
	f, _, err := createTemp(dir, TempPrefix("f"), now)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Name() != older {
		t.Errorf("took %s, want the slot older than StaleAfter", filepath.Base(f.Name()))
	}
	if b, _ := os.ReadFile(edge); string(b) != "partial" {
		t.Error("a file exactly StaleAfter old was taken")
	}
}

// With every slot a parallel writer's, a write still goes through, under a
// name of chance.
func TestAWriteWithEverySlotTakenStillWrites(t *testing.T) {
	dir := t.TempDir()
	for i := range tempSlots {
		os.WriteFile(slot(dir, "f", i), []byte("partial"), 0o600)
	}
	if err := Write(filepath.Join(dir, "f"), []byte("whole"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "whole" {
		t.Errorf("content %q", b)
	}
	names, _ := os.ReadDir(dir)
	if len(names) != tempSlots+1 {
		t.Errorf("the directory holds %d files, want the %d slots and f", len(names), tempSlots)
	}
}

// A write does not list its directory: .claude/logs/state holds two files
// a session, and a listing at every write grew with them. A name of
// chance an older version left is not looked for.
func TestAWriteDoesNotListItsDirectory(t *testing.T) {
	dir := t.TempDir()
	leftover := filepath.Join(dir, TempPrefix("f")+"123456")
	os.WriteFile(leftover, []byte("partial"), 0o600)
	old := time.Now().Add(-2 * StaleAfter)
	os.Chtimes(leftover, old, old)
	if err := Write(filepath.Join(dir, "f"), []byte("whole"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(leftover); err != nil {
		t.Error("a write looked through the directory for temporary files")
	}
}

// A writer stalled past StaleAfter whose slot was taken back must not
// rename the new writer's unfinished file into place.
func TestAWriteWhoseSlotWasTakenBackDoesNotRenameAnothersFile(t *testing.T) {
	dir := t.TempDir()
	f, _, err := createTemp(dir, TempPrefix("f"), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.Remove(f.Name())
	os.WriteFile(f.Name(), []byte("another writer's, unfinished"), 0o600)
	if err := stillNamed(f); err == nil {
		t.Error("a slot taken back was still taken for the writer's own")
	}
	g, _ := os.Open(f.Name())
	defer g.Close()
	if err := stillNamed(g); err != nil {
		t.Errorf("the file a slot names: %v", err)
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

// A write that fails (a full disk) leaves the file as it was and no
// temporary file, and says so.
func TestAFailedWriteKeepsTheFileAndLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("before"), 0o600)
	full := errors.New("no space left on device")
	WriteData = func(f *os.File, b []byte) error { f.Write(b[:1]); return full }
	defer func() { WriteData = writeData }()
	if err := Write(path, []byte("after"), Options{Perm: 0o600}); !errors.Is(err, full) {
		t.Errorf("the write's error: %v, want the disk's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "before" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("the directory holds %d files, want f alone", len(names))
	}
}

// A writer whose slot was taken back while it wrote (it stalled past
// StaleAfter) fails, and the file it would have replaced keeps the last
// whole version, not the other writer's unfinished one.
func TestAWriteWhoseSlotIsTakenBackMidwayFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("whole"), 0o600)
	WriteData = func(f *os.File, b []byte) error {
		os.Remove(f.Name())
		os.WriteFile(f.Name(), []byte("another writer's, unfinished"), 0o600)
		return writeData(f, b)
	}
	defer func() { WriteData = writeData }()
	if err := Write(path, []byte("late"), Options{Perm: 0o600}); err == nil {
		t.Error("a write whose slot was taken back succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "whole" {
		t.Errorf("the file holds %q, want the last whole version", b)
	}
	if b, _ := os.ReadFile(slot(dir, "f", 0)); string(b) != "another writer's, unfinished" {
		t.Errorf("the other writer's file was removed or changed: %q", b)
	}
}

// What killed writers left is swept by the next write that finds the first
// slot taken: every stale slot, and the names of chance writers past the
// slots used; a file another writer is writing now (fresh) stays.
func TestAWriteAfterKilledWritersSweepsEveryStaleTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * StaleAfter)
	var left []string
	for i := range tempSlots {
		left = append(left, slot(dir, "f", i))
	}
	left = append(left, filepath.Join(dir, TempPrefix("f")+"2718281828"))
	for _, p := range left {
		os.WriteFile(p, []byte("partial"), 0o600)
		os.Chtimes(p, old, old)
	}
	fresh := filepath.Join(dir, TempPrefix("f")+"31415")
	os.WriteFile(fresh, []byte("being written"), 0o600)
	if err := Write(filepath.Join(dir, "f"), []byte("new"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{TempPrefix("f") + "31415", "f"}; !slices.Equal(names, want) {
		t.Errorf("left %q, want %q", names, want)
	}
}

// The usual write, which finds its first slot free, pays for no sweep: it
// looks at no other slot (a stale one there waits for a write that finds
// the first slot taken). One that finds the first slot taken by a writer
// at work sweeps what killed writers left.
func TestOnlyAWriteThatFindsItsFirstSlotTakenSweeps(t *testing.T) {
	for _, tt := range []struct {
		name       string
		firstTaken bool
		swept      bool
	}{
		{"the first slot free", false, false},
		{"the first slot another writer's", true, true},
	} {
		dir := t.TempDir()
		old := time.Now().Add(-2 * StaleAfter)
		stale := slot(dir, "f", 2)
		os.WriteFile(stale, []byte("partial"), 0o600)
		os.Chtimes(stale, old, old)
		if tt.firstTaken {
			os.WriteFile(slot(dir, "f", 0), []byte("being written"), 0o600)
		}
		if err := Write(filepath.Join(dir, "f"), []byte("new"), Options{Perm: 0o600}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(stale); os.IsNotExist(err) != tt.swept {
			t.Errorf("%s: the stale slot swept %v, want %v", tt.name, os.IsNotExist(err), tt.swept)
		}
	}
}
