package events

import (
	"fmt"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/internal/seal"
	"github.com/session-hooks/session-hooks/logs"
)

func TestAppendAndReadBack(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	for i, sub := range []string{"init", "pre-compact", "end"} {
		if err := Append(d, Event{Time: time.Unix(int64(i+1), 0), Session: "s", Subcommand: sub, Version: "dev"}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(d.Path, File), append(mustRead(t, filepath.Join(d.Path, File)), "not json\n{}\n"...), 0o600)
	all, err := Read(d)
	if err != nil || len(all) != 3 || all[2].Subcommand != "end" {
		t.Fatalf("got %+v, %v", all, err)
	}
	if fi, _ := os.Stat(filepath.Join(d.Path, File)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

func TestAppendRotatesPastTheCap(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	old := sealedLine(t, d, `{"time":"2026-01-01T00:00:00Z","subcommand":"init","version":"old"}`)
	big := strings.Repeat(old, MaxSize/len(old)+1)
	os.WriteFile(filepath.Join(d.Path, File), []byte(big), 0o600)
	if err := Append(d, Event{Time: time.Now(), Subcommand: "end", Version: "new"}); err != nil {
		t.Fatal(err)
	}
	cur := mustRead(t, filepath.Join(d.Path, File))
	if strings.Count(string(cur), "\n") != 1 || !strings.Contains(string(cur), `"version":"new"`) {
		t.Errorf("current log: %.200s", cur)
	}
	all, _ := Read(d)
	if all[len(all)-1].Version != "new" || len(all) < 2 {
		t.Errorf("the rotated events were lost: %d", len(all))
	}
}

func TestAHundredParallelRunsAcrossARotationLoseNoLineAndNoFile(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	line := sealedLine(t, d, `{"time":"2026-01-01T00:00:00Z","subcommand":"init","version":"old"}`)
	// Full enough that the first runs fill it past the cap and the rest
	// race to rotate it.
	old := MaxSize/len(line) - 20
	os.WriteFile(filepath.Join(d.Path, File), []byte(strings.Repeat(line, old)), 0o600)
	const runs = 100
	var start, done sync.WaitGroup
	start.Add(1)
	errs := make(chan error, runs)
	for i := range runs {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			errs <- Append(d, Event{Time: time.Now(), Subcommand: "init", Version: fmt.Sprint("run-", i)})
		}()
	}
	start.Done()
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	all, err := Read(d)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range all {
		seen[e.Version]++
	}
	if seen["old"] != old {
		t.Errorf("%d of the %d lines written before the rotation survive", seen["old"], old)
	}
	for i := range runs {
		if v := fmt.Sprint("run-", i); seen[v] != 1 {
			t.Errorf("%s is in the log %d times", v, seen[v])
		}
	}
	if _, err := os.Stat(filepath.Join(d.Path, File+".1")); err != nil {
		t.Errorf("no rotation happened: %v", err)
	}
}

func TestAppendRefusesAHardLinkedLog(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	testenv.Need(t, "hard links", os.Link(victim, filepath.Join(d.Path, File)))
	err := Append(d, Event{Time: time.Now(), Subcommand: "init"})
	if err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("got %v, want a refusal", err)
	}
	if string(mustRead(t, victim)) != "keep" {
		t.Error("the other name's file was written")
	}
}

func TestAppendRefusesALinkedLog(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	os.Symlink(victim, filepath.Join(d.Path, File))
	if err := Append(d, Event{Time: time.Now(), Subcommand: "init"}); err == nil {
		t.Error("appended through a symbolic link")
	}
	if string(mustRead(t, victim)) != "keep" {
		t.Error("the link's target was written")
	}
}

func TestReadWithoutALogSaysSo(t *testing.T) {
	if _, err := Read(logs.DirFor(t.TempDir())); err == nil || !strings.Contains(err.Error(), "the hooks have not run here") {
		t.Errorf("got %v", err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sealedLine is an event line as a hook of this user writes it.
func sealedLine(t *testing.T, d logs.Dir, line string) string {
	t.Helper()
	b, err := seal.JSON(d.SealName(File), []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestLinesThisUserDidNotWriteAreIgnoredAndCounted(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	if err := Append(d, Event{Time: time.Now(), Session: "mine", Subcommand: "init"}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(d.Path, File), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-01-01T00:00:00Z","session_id":"planted","subcommand":"init","skipped":["\u001b]0;pwned\u0007"]}` + "\n")
	f.Close()
	l, err := ReadLog(d)
	if err != nil || len(l.Events) != 1 || l.Events[0].Session != "mine" || l.Ignored != 1 {
		t.Errorf("got %+v, %v; want our one event and one line ignored", l, err)
	}
}

func TestAnEventLogFoundOpenToOthersIsMadePrivate(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	os.WriteFile(filepath.Join(d.Path, File), nil, 0o666)
	os.Chmod(filepath.Join(d.Path, File), 0o666)
	if err := Append(d, Event{Time: time.Now(), Subcommand: "init"}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(d.Path, File)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode())
	}
}

func TestLinesCopiedFromAnotherProjectAreIgnored(t *testing.T) {
	root := t.TempDir()
	theirs, ours := logs.DirFor(filepath.Join(root, "theirs")), logs.DirFor(filepath.Join(root, "ours"))
	os.MkdirAll(theirs.Path, 0o700)
	if err := Append(theirs, Event{Time: time.Now(), Subcommand: "end", Version: "theirs"}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(ours.Path, 0o700)
	os.WriteFile(filepath.Join(ours.Path, File), mustRead(t, filepath.Join(theirs.Path, File)), 0o600)
	l, err := ReadLog(ours)
	if err != nil || len(l.Events) != 0 || l.Ignored != 1 {
		t.Errorf("a line sealed in another project was read here: %+v, %v", l, err)
	}
}

// A log of exactly MaxSize bytes is not yet past the cap: the next event
// is appended to it.
func TestALogOfExactlyTheCapIsAppendedTo(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	old := sealedLine(t, d, `{"time":"2026-01-01T00:00:00Z","subcommand":"init","version":"old"}`)
	full := strings.Repeat(old, MaxSize/len(old))
	full += strings.Repeat("\n", MaxSize-len(full))
	os.WriteFile(filepath.Join(d.Path, File), []byte(full), 0o600)
	if err := Append(d, Event{Time: time.Now(), Subcommand: "end", Version: "new"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d.Path, File+".1")); err == nil {
		t.Error("a log of exactly the cap was rotated")
	}
	if cur := mustRead(t, filepath.Join(d.Path, File)); !strings.HasPrefix(string(cur), full) || !strings.Contains(string(cur[MaxSize:]), `"version":"new"`) {
		t.Errorf("the event was not appended to the log")
	}
}
