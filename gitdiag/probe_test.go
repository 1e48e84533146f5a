package gitdiag

import (
	"context"
	"errors"
	"fmt"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunReportsProbesCutByTheDeadline(t *testing.T) {
	f := newFixture(t)
	block := Probe{"git slow", func(ctx context.Context, r *Repo) (Output, error) {
		time.Sleep(2 * time.Second) // ignores ctx, like a hung file system
		return Output{}, nil
	}, false}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, _ := Run(ctx, f.dir, []Probe{Branch, block, Log(5, false), StatusShort})
	if took := time.Since(start); took > testenv.Scaled(time.Second) {
		t.Fatalf("Run waited %s past a 100ms deadline", took)
	}
	if res[0].Err != nil || res[0].Lines[0] != "main (no commits yet)" {
		t.Errorf("finished probe lost: %+v", res[0])
	}
	if res[1].Err == nil || !strings.Contains(res[1].Err.Error(), "stopped after") {
		t.Errorf("running probe: %+v", res[1])
	}
	if res[2].Err == nil || !strings.Contains(res[2].Err.Error(), "not run") {
		t.Errorf("later probe: %+v", res[2])
	}
	if res[3].Err != nil {
		t.Errorf("the status walk, in its own lane, was held up by the hung probe: %v", res[3].Err)
	}
}

// The status walk and the other probes run side by side: a probe in each
// lane waits for the other to have started, which never happens if the
// lanes run one after the other.
func TestTheWalkRunsBesideTheOtherProbes(t *testing.T) {
	f := newFixture(t)
	started := map[bool]chan struct{}{true: make(chan struct{}), false: make(chan struct{})}
	meet := func(walks bool) Probe {
		return Probe{"git meet", func(context.Context, *Repo) (Output, error) {
			close(started[walks])
			select {
			case <-started[!walks]:
				return Output{}, nil
			case <-time.After(10 * time.Second):
				return Output{}, errors.New("the other lane never started")
			}
		}, walks}
	}
	res, _ := Run(context.Background(), f.dir, []Probe{meet(true), meet(false)})
	for _, r := range res {
		if r.Err != nil {
			t.Errorf("the two lanes ran one after the other: %v", r.Err)
		}
	}
}

func TestRunTurnsAProbePanicIntoAnError(t *testing.T) {
	f := newFixture(t)
	bad := Probe{"git bad", func(context.Context, *Repo) (Output, error) { panic("oops") }, false}
	res, _ := Run(context.Background(), f.dir, []Probe{bad, Branch})
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "internal error: oops") {
		t.Errorf("got %+v", res[0])
	}
	if res[1].Err != nil {
		t.Errorf("the next probe did not run: %v", res[1].Err)
	}
}

func TestRunOutsideARepositoryFailsEveryProbe(t *testing.T) {
	isolateGit(t)
	res, engine := Run(context.Background(), t.TempDir(), []Probe{Branch, StatusShort})
	if engine != "" {
		t.Errorf("engine %q for a directory that is not a repository", engine)
	}
	for _, r := range res {
		if !errors.Is(r.Err, ErrNotRepository) {
			t.Errorf("%s: %v", r.Command, r.Err)
		}
	}
}

func TestStatusCutByTheDeadlineSaysSoAndReportsNothingDeleted(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 50; i++ {
		f.write(fmt.Sprintf("d%02d/f.txt", i), "x")
	}
	f.commit("first")
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := r.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Incomplete, "the work tree walk stopped after") {
		t.Errorf("incomplete note %q", st.Incomplete)
	}
	for _, line := range st.Short("") {
		if strings.HasPrefix(line, " D") {
			t.Errorf("a file not looked at was reported deleted: %s", line)
		}
	}
}

// git reads the index without checking its trailing hash (only fsck
// does, read-cache.c's verify_index_checksum): one whose hash no longer
// matches is read as git reads it, not refused.
func TestIndexWithABadChecksumIsReadAsGitReadsIt(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a")
	f.write("b.txt", "b")
	f.commit("first")
	f.write("b.txt", "changed")
	b, _ := os.ReadFile(f.path(".git/index"))
	b[40] ^= 0xff // the first entry's uid: the checksum no longer matches
	os.WriteFile(f.path(".git/index"), b, 0o644)
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st, err := r.Status(context.Background())
	if err != nil {
		t.Fatalf("status of an index git reads: %v", err)
	}
	compare(t, "status --porcelain", lines(f.git("status", "--porcelain")), st.Short(""))
}

func TestAnIndexThatDoesNotDecodeIsReportedNotMisread(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a")
	f.commit("first")
	b, _ := os.ReadFile(f.path(".git/index"))
	os.WriteFile(f.path(".git/index"), b[:len(b)/2], 0o644)
	res, _ := Run(context.Background(), f.dir, []Probe{StatusShort})
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "fatal: index file is corrupt") {
		t.Errorf("got %v", res[0].Err)
	}
}

// One hook run asks for the status through several calls (the probes,
// then the long-running checks): the work tree is walked once.
func TestSharedRepoWalksTheWorkTreeOnce(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("first")
	f.write("a.txt", "changed\n")
	s := NewShared(f.dir)
	defer s.Close()
	ctx := context.Background()
	status := func(r *Repo) (*Status, error) { return r.Status(ctx) }
	first, err := Within(ctx, s, status)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := s.Run(ctx, []Probe{StatusShort})
	compare(t, "status --short", []string{" M a.txt"}, res[0].Lines)
	f.write("new.txt", "written after the walk\n")
	second, err := Within(ctx, s, status)
	if err != nil {
		t.Fatal(err)
	}
	if first != second {
		t.Error("the second call walked the work tree again")
	}
}

// A call abandoned at its deadline keeps the Repo until it returns: the
// next call waits its turn (giving up at its own deadline), and Close does
// not wait for it.
func TestSharedRepoCallCutByTheDeadlineKeepsItsTurn(t *testing.T) {
	f := newFixture(t)
	s := NewShared(f.dir)
	release := make(chan struct{})
	var released atomic.Bool
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := Within(ctx, s, func(r *Repo) (bool, error) { <-release; return true, nil })
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("got %v, want the deadline", err)
	}
	secondRan := make(chan bool, 1)
	_, err = Within(ctx, s, func(r *Repo) (bool, error) { secondRan <- released.Load(); return true, nil })
	if err == nil {
		t.Error("the second call did not give up at the deadline")
	}
	s.Close() // returns at once: the first call still holds the Repo
	released.Store(true)
	close(release)
	if after := <-secondRan; !after {
		t.Error("the second call ran beside the first")
	}
}

// countdown is a context that ends after n looks at it: the walk checks
// its context at each directory, so it is cut partway, as a deadline cuts
// it on a busy machine.
type countdown struct {
	context.Context
	n atomic.Int32
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// A walk cut partway reports the changes it saw, says how many tracked
// files it did not compare, and reports none of those deleted: never an
// empty list that reads as clean.
func TestACutStatusReportsWhatItSawAndHowMuchIsMissing(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 40; i++ {
		f.write(fmt.Sprintf("d%02d/f.txt", i), "x")
	}
	f.commit("first")
	for i := 0; i < 40; i++ {
		f.write(fmt.Sprintf("d%02d/f.txt", i), "changed")
	}
	r, err := Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := &countdown{Context: context.Background()}
	ctx.n.Store(12)
	st, err := r.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lines := st.Short("")
	var missing int
	if _, err := fmt.Sscanf(st.Incomplete[strings.Index(st.Incomplete, "with ")+5:], "%d of 40 tracked files not compared", &missing); err != nil {
		t.Fatalf("incomplete note %q: %v", st.Incomplete, err)
	}
	if len(lines) == 0 || missing == 0 || len(lines)+missing != 40 {
		t.Errorf("%d changes reported and %d files not compared, of 40 changed:\n%s", len(lines), missing, strings.Join(lines, "\n"))
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, " M ") {
			t.Errorf("a file not looked at was reported: %s", line)
		}
	}
}

// A probe that stops at the deadline itself, as the status walk does, and
// answers a moment later with what it saw keeps it: the answer is not
// replaced by "stopped". A probe that ignores the deadline is still cut.
func TestAProbeThatStopsAtTheDeadlineKeepsWhatItSaw(t *testing.T) {
	f := newFixture(t)
	cut := Probe{"git status --short", func(ctx context.Context, r *Repo) (Output, error) {
		<-ctx.Done()
		time.Sleep(2 * time.Millisecond) // finishing the directory at hand
		return Output{Lines: []string{"?? seen.txt"}, Note: "the walk was cut"}, nil
	}, true}
	hung := Probe{"git slow", func(ctx context.Context, r *Repo) (Output, error) {
		time.Sleep(2 * time.Second)
		return Output{}, nil
	}, false}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, _ := Run(ctx, f.dir, []Probe{cut, hung})
	if res[0].Err != nil || len(res[0].Lines) != 1 || res[0].Note != "the walk was cut" {
		t.Errorf("what the cut walk saw was dropped: %+v", res[0])
	}
	if res[1].Err == nil {
		t.Errorf("a probe that ignores the deadline was waited for: %+v", res[1])
	}
}

func TestTheGraceIsAShareOfAShortDeadline(t *testing.T) {
	now := time.Now()
	for span, want := range map[time.Duration]time.Duration{10 * time.Second: deadlineGrace, 200 * time.Millisecond: 10 * time.Millisecond} {
		ctx, cancel := context.WithDeadline(context.Background(), now.Add(span))
		if got := graceFor(ctx, now); got != want {
			t.Errorf("a deadline %s away: grace %s, want %s", span, got, want)
		}
		cancel()
	}
	if got := graceFor(context.Background(), now); got != deadlineGrace {
		t.Errorf("no deadline: grace %s", got)
	}
}

// A call the deadline cuts hands over nothing: its caller gets the zero
// value at once, while the call, going on in the background, keeps its
// own (run under the race detector, a write into the caller's would
// show).
func TestWithinHandsOverAValueOnlyOnceTheCallReturned(t *testing.T) {
	f := newFixture(t)
	s := NewShared(f.dir)
	defer s.Close()
	release := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got, err := Within(ctx, s, func(r *Repo) ([]string, error) {
		<-release
		return []string{"late"}, nil
	})
	close(release)
	if err == nil || got != nil {
		t.Errorf("a cut call handed over %q, %v", got, err)
	}
	got, err = Within(context.Background(), s, func(r *Repo) ([]string, error) { return []string{"on time"}, nil })
	if err != nil || len(got) != 1 || got[0] != "on time" {
		t.Errorf("a call that returned: %q, %v", got, err)
	}
}
