package gitdiag

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
)

// Probe is one fact gathered in-process, named by the git command whose
// output it reproduces, so logs read as they did when the git CLI ran.
type Probe struct {
	Command string
	run     func(ctx context.Context, r *Repo) (Output, error)
	// walks: the probe reads the work tree's status. Those go one after
	// the other beside the rest (HEAD, history, the diff stat against the
	// upstream), which need only the object store: on a feature branch the
	// diff stat no longer waits for the walk.
	walks bool
}

// Output is what a probe found.
type Output struct {
	Lines []string
	// Command replaces the probe's name when it depends on the repository
	// (the diff stat names the upstream it compared with).
	Command string
	// Note says what was left out, when the probe returned a partial result.
	Note string
}

// Result is a probe's outcome: plain data for the logs to render.
type Result struct {
	Command  string
	Lines    []string
	Note     string
	Err      error
	Duration time.Duration
}

// Branch stands for `git branch --show-current`, naming detached and
// unborn states instead of printing nothing.
var Branch = Probe{"git branch --show-current", func(ctx context.Context, r *Repo) (Output, error) {
	h, err := r.Head()
	if err != nil {
		return Output{}, err
	}
	return Output{Lines: []string{h.String()}}, nil
}, false}

// Log stands for `git log --oneline -n [--decorate]`.
func Log(n int, decorate bool) Probe {
	cmd := fmt.Sprintf("git log --oneline -%d", n)
	if decorate {
		cmd += " --decorate"
	}
	return Probe{cmd, func(ctx context.Context, r *Repo) (Output, error) {
		h, err := r.Head()
		if err != nil {
			return Output{}, err
		}
		if h.Unborn {
			return Output{Lines: []string{fmt.Sprintf("(no commits yet on branch %s)", h.Branch)}}, nil
		}
		commits, err := r.Log(ctx, n, decorate)
		if err != nil {
			return Output{}, err
		}
		var out Output
		for _, c := range commits {
			out.Lines = append(out.Lines, c.Oneline())
		}
		return out, nil
	}, false}
}

// StatusShort stands for `git status --short`, run from the directory the
// repository was opened from.
var StatusShort = Probe{"git status --short", func(ctx context.Context, r *Repo) (Output, error) {
	st, err := r.Status(ctx)
	if err != nil {
		return Output{}, err
	}
	return Output{Lines: st.Short(r.Prefix), Note: st.Incomplete}, nil
}, true}

// NamesAgainstHEAD stands for `git diff --name-only HEAD`. On a branch with
// no commit yet every tracked file counts as changed.
var NamesAgainstHEAD = Probe{"git diff --name-only HEAD", func(ctx context.Context, r *Repo) (Output, error) {
	st, err := r.Status(ctx)
	if err != nil {
		return Output{}, err
	}
	return Output{Lines: st.NamesAgainstHEAD(), Note: st.Incomplete}, nil
}, true}

// Untracked stands for `git ls-files --others --exclude-standard --directory
// --no-empty-directory`: what `git diff --name-only HEAD` leaves out of
// the uncommitted work.
var Untracked = Probe{"git ls-files --others --exclude-standard --directory --no-empty-directory", func(ctx context.Context, r *Repo) (Output, error) {
	st, err := r.Status(ctx)
	if err != nil {
		return Output{}, err
	}
	return Output{Lines: st.UntrackedNames(), Note: st.Incomplete}, nil
}, true}

// DiffStatUpstream stands for `git diff --stat <upstream>...HEAD`, with the
// branch's configured upstream, else origin/HEAD.
var DiffStatUpstream = Probe{"git diff --stat @{upstream}...HEAD", func(ctx context.Context, r *Repo) (Output, error) {
	h, err := r.Head()
	if err != nil {
		return Output{}, err
	}
	if h.Unborn {
		return Output{Lines: []string{"(no upstream comparison available: no commits yet)"}}, nil
	}
	up, err := r.Upstream(h)
	if err != nil {
		return Output{Lines: []string{"(no upstream comparison available: " + err.Error() + ")"}}, nil
	}
	cmd := "git diff --stat " + up.Name + "...HEAD"
	stats, err := r.DiffStat(ctx, h, up)
	if promisor := r.partialClone(); err != nil && promisor != "" && errors.Is(err, objects.ErrNotFound) {
		// Not a failure to read git: git would fetch what this clone
		// left out; session-hooks fetches nothing.
		return Output{Command: cmd, Lines: []string{"(not computed: this partial clone has not fetched the objects the diff stat needs; git would fetch them from " + promisor + ")"}}, nil
	}
	if err != nil {
		return Output{Command: cmd}, err
	}
	return Output{Command: cmd, Lines: FormatStat(stats, r.quotePath())}, nil
}, false}

// Run opens the repository at dir and runs the probes (those that walk
// the work tree in one lane, the others beside it, each lane in order)
// until ctx ends. A probe still running then is reported as stopped and the rest as
// not run, so a hook always answers within its deadline with what it has.
// It also returns how the repository was read (Repo.Engine), or "" when it
// could not be opened.
func Run(ctx context.Context, dir string, probes []Probe) ([]Result, string) {
	s := NewShared(dir)
	defer s.Close()
	return s.Run(ctx, probes)
}

// Shared is one repository opened on first use and shared by the calls of
// one hook run, so that the work tree is walked once however many facts
// are asked of it (a Repo is a snapshot). The calls take turns; each gives
// up at its context's end, and one still running then keeps the Repo until
// it returns.
type Shared struct {
	// CacheDir is given to the Repo when it is opened (Repo.CacheDir).
	CacheDir string
	dir      string
	mu       sync.Mutex // held by the call using repo
	opened   bool
	repo     *Repo
	err      error
}

// NewShared prepares the repository containing dir; nothing is read yet.
func NewShared(dir string) *Shared { return &Shared{dir: dir} }

// open returns the Repo, opening it on the first call; s.mu is held.
func (s *Shared) open() (*Repo, error) {
	if !s.opened {
		s.repo, s.err = Open(s.dir)
		s.opened = true
		if s.repo != nil {
			s.repo.CacheDir = s.CacheDir
		}
	}
	return s.repo, s.err
}

// Close releases the files of the Repo, unless a call abandoned at its
// deadline still uses it (the process is about to end anyway).
func (s *Shared) Close() {
	if !s.mu.TryLock() {
		return
	}
	defer s.mu.Unlock()
	if s.repo != nil {
		s.repo.Close()
	}
}

// Run is the package's Run on the shared Repo: the probes that walk the
// work tree in one lane, the others in a second beside it, each lane in
// order.
func (s *Shared) Run(ctx context.Context, probes []Probe) ([]Result, string) {
	type done struct {
		i   int
		res Result
	}
	results := make([]Result, len(probes))
	var lanes [2][]int
	for i, p := range probes {
		results[i] = Result{Command: p.Command}
		lane := 1
		if p.walks {
			lane = 0
		}
		lanes[lane] = append(lanes[lane], i)
	}
	ch := make(chan done, len(probes))
	engine := make(chan string, 1)
	go func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		start := time.Now()
		r, err := s.open()
		if err != nil {
			for i, p := range probes {
				ch <- done{i, Result{Command: p.Command, Err: err, Duration: time.Since(start)}}
			}
			engine <- ""
			return
		}
		var wg sync.WaitGroup
		for _, lane := range lanes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, i := range lane {
					ch <- done{i, runOne(ctx, r, probes[i])}
				}
			}()
		}
		wg.Wait()
		engine <- r.Engine()
	}()
	started := time.Now()
	received := make([]bool, len(probes))
	for n := 0; n < len(probes); n++ {
		select {
		case d := <-ch:
			results[d.i], received[d.i] = d.res, true
			continue
		case <-ctx.Done():
		}
		// A probe that stops at the deadline itself (the status walk)
		// answers with what it saw and says it was cut: wait a moment for
		// it rather than drop what it saw.
		grace := time.NewTimer(graceFor(ctx, started))
		defer grace.Stop()
		for ; n < len(probes); n++ {
			select {
			case d := <-ch:
				results[d.i], received[d.i] = d.res, true
			case <-grace.C:
				for _, lane := range lanes {
					stopDeadline(results, lane, received, time.Since(started))
				}
				return results, "fast"
			}
		}
	}
	select {
	case e := <-engine:
		return results, e
	case <-ctx.Done():
		return results, "fast"
	}
}

// deadlineGrace is the longest Run waits past its deadline for the probes
// that stop at it themselves: the status walk checks the deadline between
// directories and answers within a few milliseconds, loaded or not. A
// short deadline gets a twentieth of itself, so that the hook's writes
// after the gathering keep their time.
const deadlineGrace = 40 * time.Millisecond

func graceFor(ctx context.Context, started time.Time) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return min(deadlineGrace, d.Sub(started)/20)
	}
	return deadlineGrace
}

// Within runs fn on the shared Repo, giving up at ctx's deadline. fn may
// go on in the background after that, so what it reads is handed over as
// its value, only once it has returned: fn writes nothing its caller
// reads (there is no form taking a closure that writes the caller's
// variables: a cut call went on writing them while the hook rendered).
func Within[T any](ctx context.Context, s *Shared, fn func(r *Repo) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("internal error: %v", v)}
			}
		}()
		r, err := s.open()
		if err != nil {
			done <- result{err: err}
			return
		}
		v, err := fn(r)
		done <- result{v, err}
	}()
	select {
	case res := <-done:
		return res.v, res.err
	case <-ctx.Done():
		var zero T
		return zero, errors.New("stopped: " + DeadlineCut + " passed")
	}
}

// DeadlineCut is in the error of every probe the hook's deadline stopped or
// kept from running: a fact cut, not a repository git cannot read.
const DeadlineCut = "the hook's deadline"

// stopDeadline marks the probes of a lane without a result as cut by the
// deadline: the first was running, the others never started.
func stopDeadline(results []Result, lane []int, received []bool, after time.Duration) {
	running := true
	for _, i := range lane {
		if received[i] {
			continue
		}
		msg := "not run: " + DeadlineCut + " had passed"
		if running {
			msg = "stopped after " + formatSeconds(after) + ": " + DeadlineCut + " passed"
			running = false
		}
		results[i].Err = errors.New(msg)
		results[i].Lines = nil
	}
}

func runOne(ctx context.Context, r *Repo, p Probe) (res Result) {
	start := time.Now()
	res.Command = p.Command
	defer func() {
		if v := recover(); v != nil {
			res.Err = fmt.Errorf("internal error: %v", v)
		}
		res.Duration = time.Since(start)
	}()
	out, err := p.run(ctx, r)
	if out.Command != "" {
		res.Command = out.Command
	}
	res.Lines, res.Note, res.Err = out.Lines, out.Note, err
	return res
}
