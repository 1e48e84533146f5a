package state

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/logs"
)

func TestSessionsAreNumberedInOrderAndSurviveARoundTrip(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"first", "second", "third"} {
		if s, note := Load(d, id); s != nil || note != "" {
			t.Fatalf("%s exists before it started: %+v %q", id, s, note)
		}
		s := Start(d, id, "abc123", now)
		if s.Number != i+1 {
			t.Errorf("%s is number %d", id, s.Number)
		}
		if err := s.Save(d); err != nil {
			t.Fatal(err)
		}
	}
	s, note := Load(d, "second")
	if note != "" || s.Number != 2 || s.StartHead != "abc123" || !s.StartedAt.Equal(now) {
		t.Errorf("got %+v %q", s, note)
	}
}

func TestSessionsStartingAtOnceGetDistinctNumbers(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	Start(d, "earlier", "", time.Now()).Save(d) // state from before claims: number 1
	const n = 50
	numbers := make([]int, n)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range n {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			s := Start(d, fmt.Sprint("session-", i), "", time.Now())
			if err := s.Claim(d); err != nil {
				t.Error(err)
			}
			numbers[i] = s.Number
		}()
	}
	start.Done()
	done.Wait()
	slices.Sort(numbers)
	for i, got := range numbers {
		if got != i+2 {
			t.Fatalf("numbers given out: %v, want 2..%d once each", numbers, n+1)
		}
	}
}

func TestAClaimBySameSessionIsKept(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	a, b := Start(d, "same", "", time.Now()), Start(d, "same", "", time.Now())
	if a.Claim(d) != nil || b.Claim(d) != nil || a.Number != 1 || b.Number != 1 {
		t.Errorf("one session got numbers %d and %d", a.Number, b.Number)
	}
}

func TestCorruptStateIsStartedAfresh(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(filepath.Join(d.Path, Dir), 0o700)
	os.WriteFile(filepath.Join(d.Path, Dir, "broken.json"), []byte("{not json"), 0o600)
	s, note := Load(d, "broken")
	if s != nil || note != "the state of session broken was unreadable and is started afresh" {
		t.Errorf("got %+v %q", s, note)
	}
	if n := Start(d, "next", "", time.Now()).Number; n != 1 {
		t.Errorf("a corrupt file counted as session %d", n-1)
	}
}

func TestAnnounceOncePerLevel(t *testing.T) {
	s := &Session{}
	if !s.Announce("warn") || s.Announce("warn") || !s.Announce("critical") {
		t.Errorf("announced %v", s.Announced)
	}
}

func TestSessionIDsCannotEscapeTheStateDirectory(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	s := Start(d, "../../escape", "", time.Now())
	if err := s.Save(d); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(d.Path, Dir))
	if len(entries) != 1 {
		t.Fatalf("state written elsewhere: %v", entries)
	}
	if got, _ := Load(d, "../../escape"); got == nil || got.Number != 1 {
		t.Errorf("got %+v", got)
	}
}

func TestOneRunAtATimeHoldsASessionsState(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	unlock, err := Lock(context.Background(), d, "s1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, d, "s1"); err == nil || !strings.Contains(err.Error(), "stayed locked") {
		t.Fatalf("a second run took the held state: %v", err)
	}
	other, err := Lock(context.Background(), d, "s2")
	if err != nil {
		t.Fatalf("another session's state is not this one's lock: %v", err)
	}
	other()
	got := make(chan error, 1)
	go func() {
		u, err := Lock(context.Background(), d, "s1")
		if err == nil {
			u()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Errorf("the waiting run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was not handed on when let go")
	}
}

func TestAModelChangeIsSeenOnceAndSaysTheModelBefore(t *testing.T) {
	var s Session
	for _, step := range []struct {
		model, prev string
		changed     bool
	}{{"", "", false}, {"opus", "", false}, {"opus", "", false}, {"sonnet", "opus", true}, {"opus", "sonnet", true}} {
		prev, changed := s.SeeModel(step.model)
		if prev != step.prev || changed != step.changed {
			t.Errorf("SeeModel(%q) = %q, %v; want %q, %v", step.model, prev, changed, step.prev, step.changed)
		}
	}
	if strings.Join(s.Models, ",") != "opus,sonnet,opus" {
		t.Errorf("models %q", s.Models)
	}
}

func TestTheNextNumberFollowsTheHighestClaimOrState(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	if n := highest(d); n != 0 {
		t.Errorf("an empty project: %d", n)
	}
	// States from before claims: the highest sealed one.
	s := Start(d, "old", "", time.Now())
	s.Number = 40
	if err := s.Save(d); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d.Path, Dir, "planted.json"), []byte(`{"session_id":"planted","session_number":999}`), 0o600)
	if n := highest(d); n != 40 {
		t.Errorf("a state of 40 and an unsealed one of 999: %d, want 40", n)
	}
	// Claims: they alone, without reading a state.
	os.MkdirAll(filepath.Join(d.Path, Dir, numbersDir), 0o700)
	for _, name := range []string{"3", "41", "not-a-number"} {
		os.WriteFile(filepath.Join(d.Path, Dir, numbersDir, name), []byte("x"), 0o600)
	}
	if n := highest(d); n != 41 {
		t.Errorf("claims 3 and 41: %d", n)
	}
}

// A new session's number must not cost a read of every session's state:
// with a claim there, no state is read, so the number of one written
// without a claim is not seen.
func TestANewSessionsNumberReadsNoState(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	first := Start(d, "first", "", time.Now())
	if err := first.Claim(d); err != nil {
		t.Fatal(err)
	}
	first.Save(d)
	second := Start(d, "second", "", time.Now())
	if second.Number != 2 {
		t.Fatalf("after one claimed session: number %d, want 2", second.Number)
	}
	s := Start(d, "legacy", "", time.Now())
	s.Number = 70 // a state written after claims began, without one: not read
	s.Save(d)
	if n := highest(d); n != 1 {
		t.Errorf("one claim and an unclaimed state of 70: %d, want 1 (the claims alone)", n)
	}
}

// claimAll makes claims of the numbers given, as sessions would.
func claimAll(t *testing.T, d logs.Dir, numbers ...int) {
	t.Helper()
	os.MkdirAll(filepath.Join(d.Path, Dir, numbersDir), 0o700)
	for _, n := range numbers {
		if err := os.WriteFile(filepath.Join(d.Path, Dir, numbersDir, fmt.Sprint(n)), []byte(fmt.Sprint("s", n)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func upTo(first, last int) []int {
	var out []int
	for n := first; n <= last; n++ {
		out = append(out, n)
	}
	return out
}

func TestTheHighestOfDenseClaimsIsFoundAtEveryCount(t *testing.T) {
	for _, last := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 127, 128, 129} {
		d := logs.DirFor(t.TempDir())
		claimAll(t, d, upTo(1, last)...)
		if n := highest(d); n != last {
			t.Errorf("claims 1 to %d: highest %d", last, n)
		}
	}
}

// The claims are not listed: a stray claim far above the dense ones (which
// no session makes) is not seen, where a listing would have found it.
func TestTheHighestClaimIsFoundWithoutListingTheClaims(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	claimAll(t, d, append(upTo(1, 300), 5000)...)
	if n := highest(d); n != 300 {
		t.Errorf("claims 1 to 300 and a stray 5000: %d, want 300", n)
	}
}

// Claims that began above the states of earlier sessions are listed once;
// the listing leaves where they begin, and later starts probe from there.
func TestClaimsThatBeganAboveOlderStatesAreListedOnce(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	claimAll(t, d, upTo(41, 60)...)
	os.WriteFile(filepath.Join(d.Path, Dir, numbersDir, "0"), nil, 0o600) // no session's
	if n := highest(d); n != 60 {
		t.Fatalf("claims 41 to 60: %d", n)
	}
	if f := floor(d); f != 40 {
		t.Fatalf("the floor left: %d, want 40", f)
	}
	claimAll(t, d, 61, 5000)
	if n := highest(d); n != 61 {
		t.Errorf("claims 41 to 61 and a stray 5000, after the floor: %d, want 61", n)
	}
}

// Claims reached through a link (a repository's .claude/logs/state/numbers
// pointing elsewhere) are neither probed nor listed.
func TestClaimsThroughALinkAreNotRead(t *testing.T) {
	d := logs.DirFor(t.TempDir())
	elsewhere := t.TempDir()
	for n := range 5 {
		os.WriteFile(filepath.Join(elsewhere, fmt.Sprint(n+1)), nil, 0o600)
	}
	os.MkdirAll(filepath.Join(d.Path, Dir), 0o700)
	os.Symlink(elsewhere, filepath.Join(d.Path, Dir, numbersDir))
	if n := highest(d); n != 0 {
		t.Errorf("claims 1 to 5 through a link: highest %d, want 0", n)
	}
}
