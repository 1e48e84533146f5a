package hooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/internal/safefile"

	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/protocol"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs/events"
	"github.com/session-hooks/session-hooks/transcript"
)

// The gathering shared by the handlers: every read of git, the session's
// state, the memory files and the long-running files happens here, before
// anything is decided or rendered.

// gitFacts runs the probes and turns their results into data; the event
// line records their times and failures.
func (r *Run) gitFacts(probes []gitdiag.Probe) facts.Git {
	results, engine := r.Git.Run(r.Ctx, probes)
	r.ev.Engine = engine
	g := facts.Git{Engine: engine}
	for i, res := range results {
		p := facts.Probe{Command: res.Command, OK: res.Err == nil, Output: res.Lines, Note: res.Note,
			DurationMS: events.MS(res.Duration)}
		r.ev.Probes = append(r.ev.Probes, events.Probe{Command: res.Command, DurationMS: p.DurationMS, OK: p.OK})
		if res.Err != nil {
			p.Error = firstLine(res.Err.Error())
			r.fail("probe", res.Command+": "+p.Error)
		}
		g.Probes = append(g.Probes, p)
		if res.Err != nil {
			if probes[i].Command == gitdiag.StatusShort.Command {
				g.StatusIncomplete = "the status was not read: " + p.Error
			}
			continue
		}
		switch probes[i].Command {
		case gitdiag.Branch.Command:
			if len(res.Lines) > 0 {
				g.Branch = res.Lines[0]
			}
		case gitdiag.StatusShort.Command:
			g.Status, g.StatusIncomplete = res.Lines, res.Note
		case gitdiag.DiffStatUpstream.Command:
			g.DiffStat = res.Lines
		default:
			if strings.HasPrefix(res.Command, "git log") {
				g.Commits = res.Lines
			}
		}
	}
	return g
}

// upstreamFacts adds where the branch stands against its upstream. Counts
// the deadline cut are said in a note: null alone would read as nothing to
// say. What the calls read is taken only once they have returned (a call
// the deadline cut goes on in the background).
func (r *Run) upstreamFacts(g *facts.Git) {
	type tips struct {
		head gitdiag.Head
		up   gitdiag.Upstream
	}
	at, err := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (*tips, error) {
		h, err := repo.Head()
		if err != nil || h.Unborn {
			return nil, err
		}
		u, err := repo.Upstream(h)
		if err != nil {
			return nil, nil // no upstream is a fact, not a failure
		}
		return &tips{h, u}, nil
	})
	if err != nil || at == nil {
		return
	}
	g.Upstream = at.up.Name
	counts, err := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) ([2]int, error) {
		ahead, behind, err := repo.AheadBehind(r.Ctx, at.head.Hash, at.up.Hash)
		return [2]int{ahead, behind}, err
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || r.Ctx.Err() != nil {
			err = errors.New("the hook's deadline passed")
		}
		r.note(fmt.Sprintf("ahead and behind %s not counted: %s", at.up.Name, firstLine(err.Error())))
		return
	}
	g.Ahead, g.Behind = &counts[0], &counts[1]
}

// session loads this session's state, starting it (at the current HEAD)
// when it is new; without a session id there is none. It is read once per
// run, and a note about it is given once.
func (r *Run) session() *state.Session {
	if r.sessLoaded {
		return r.sess
	}
	r.sessLoaded = true
	id := r.In.SessionID
	if id == "" {
		return nil
	}
	if !r.NoLog {
		// Held until the state is written (writeState): parallel runs of
		// one session must not each save over the others' changes.
		unlock, err, ok := within2(r, "locking the session's state", func() (func(), error) {
			return state.Lock(r.Ctx, r.Logs, id)
		})
		switch {
		case !ok:
			return nil
		case err != nil:
			r.fail("state", firstLine(err.Error()))
		default:
			r.unlockState = unlock
		}
	}
	s, note, ok := within2(r, "reading the session's state", func() (*state.Session, string) {
		return state.Load(r.Logs, id)
	})
	if !ok {
		return nil
	}
	if note != "" {
		r.note(note)
	}
	if s == nil {
		type begun struct {
			head      string
			untracked []string
		}
		at, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (begun, error) {
			var at begun
			if hd, err := repo.Head(); err == nil && !hd.Unborn {
				at.head = hd.Hash.String()
			}
			// What is untracked when the session starts is the user's: the
			// stop check must not ask the agent to commit it.
			if st, err := repo.Status(r.Ctx); err == nil && st.Incomplete == "" {
				for _, f := range st.Files {
					if f.X == '?' && len(at.untracked) < state.MaxStartUntracked {
						at.untracked = append(at.untracked, f.Path)
					}
				}
			}
			return at, nil
		})
		s = state.Start(r.Logs, id, at.head, r.Start)
		s.StartUntracked = at.untracked
		if !r.NoLog {
			claimed := *s
			err, ok := within(r, "claiming a session number", func() error { return claimed.Claim(r.Logs) })
			if !ok {
				return nil
			}
			if err != nil {
				r.fail("state", "session number not claimed: "+firstLine(err.Error()))
			}
			s.Number = claimed.Number
		}
		r.saveState(s)
	}
	r.sess = s
	return s
}

// saveState records that the session's state changed.
//
// Gathering and deciding only mark the state changed; writeState writes
// it once, with the logs and the event line, when the run is done.
func (r *Run) saveState(s *state.Session) {
	r.sess, r.sessLoaded, r.stateDirty = s, true, true
}

// writeState writes the session's state if the run changed it, unless
// --no-log, and says whether it is on disk.
func (r *Run) writeState() bool {
	if r.unlockState != nil {
		defer func() { r.unlockState(); r.unlockState = nil }()
	}
	if !r.stateDirty || r.NoLog || r.sess == nil {
		return true
	}
	r.stateDirty = false
	s := r.sess
	err, ok := within(r, "saving the session's state", func() error { return s.Save(r.Logs) })
	if !ok {
		return false
	}
	if err != nil {
		r.fail("state", "session state not saved: "+firstLine(err.Error()))
		return false
	}
	return true
}

// maxMemoryFile bounds a memory file or an initializer read: they are
// instructions, kilobytes long.
const maxMemoryFile = 8 << 20

// memoryFiles are the instructions Claude Code reads at every session: an
// agent that rewrites them changes every session after it.
var memoryFiles = []string{"CLAUDE.md", "AGENTS.md", ".claude/CLAUDE.md"}

// observe records, in the session's state, the event's model and, when the
// session starts, the memory files' hashes. It notes a change of model,
// and (at the end) the memory files that changed.
func (r *Run) observe(ending bool) {
	s := r.session()
	if s == nil {
		return
	}
	if prev, changed := s.SeeModel(r.In.Model); changed {
		r.note(fmt.Sprintf("the model changed during the session: %s → %s", prev, r.In.Model))
	}
	now, ok := within(r, "reading the memory files", r.memoryHashes)
	if !ok {
		return
	}
	if s.Memory == nil {
		s.Memory = now
	}
	if ending {
		if changed := changedMemory(s.Memory, now); len(changed) > 0 {
			r.note("memory files changed during the session: " + strings.Join(changed, ", "))
		}
	}
	r.saveState(s)
}

func (r *Run) memoryHashes() map[string]string {
	out := map[string]string{}
	for _, f := range memoryFiles {
		b, err := safefile.ReadIn(r.Project, safefile.Rel(f), maxMemoryFile)
		if err != nil {
			out[f] = ""
			continue
		}
		sum := sha256.Sum256(b)
		out[f] = hex.EncodeToString(sum[:])
	}
	return out
}

// changedMemory names the memory files whose hash differs.
func changedMemory(before, now map[string]string) []string {
	var out []string
	for _, f := range memoryFiles {
		switch b, n := before[f], now[f]; {
		case b == n:
		case b == "":
			out = append(out, f+" (created)")
		case n == "":
			out = append(out, f+" (deleted)")
		default:
			out = append(out, f)
		}
	}
	return out
}

// relative shows a path inside the project relative to it.
func (r *Run) relative(p string) string {
	if rel, err := filepath.Rel(r.Project, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// What the long-running gathering reads besides the feature list.
type lrScope int

const (
	lrStart lrScope = iota // init: the next features, the last progress entry
	lrWork                 // recovery and checkpoints: the work since the session started
	lrBrief                // end: the headline only
)

// longRunning gathers the long-running facts when the checks are active
// for the project, or returns nil: a project without them sees nothing
// extra. The session's state is created the first time it is seen.
func (r *Run) longRunning(scope lrScope) *facts.LongRunning {
	if !r.Cfg.Active(r.Project) {
		return nil
	}
	lr := r.Cfg.LongRunning
	f := &facts.LongRunning{FeatureList: string(lr.FeatureList), ProgressFile: string(lr.ProgressFile)}
	features, err, ok := within2(r, "reading the feature list", func() ([]longrun.Feature, error) {
		return longrun.ReadFeatures(r.Project, lr.FeatureList)
	})
	if !ok {
		err = errors.New("not read by the hook's deadline")
	}
	switch {
	case err == nil:
		f.FeatureListState = longrun.FeatureListOK
		f.FeaturesPassing, f.FeaturesTotal = longrun.Passing(features), len(features)
	case os.IsNotExist(err):
		f.FeatureListState = longrun.FeatureListMissing
	default:
		f.FeatureListState = firstLine(err.Error())
	}
	if s := r.session(); s != nil {
		f.SessionNumber = s.Number
	}
	c := r.context()
	f.ContextWindow, f.Thresholds = c.Window, [3]int{c.Warn, c.Critical, c.Emergency}
	if u, ok := r.contextUsage(); ok {
		f.ContextTokens = &u
		f.ContextLevel = longrun.Level(u, c.Warn, c.Critical, c.Emergency)
	}
	switch scope {
	case lrStart:
		r.gatherLongRunningStart(f, features)
	case lrWork:
		r.gatherWork(f)
	}
	return f
}

// contextUsage is the latest context size the transcript reports, also
// recorded in the event line. It is read once per run.
func (r *Run) contextUsage() (int, bool) {
	if !r.usageRead {
		r.usageRead = true
		// Right after a compaction the size is unknown until the next
		// reply, and the boundary may not be on disk yet when SessionStart
		// "compact" runs: the transcript's last usage is from before it.
		src := r.In.Source
		if t := r.In.ContextTokens; t != nil && (src == protocol.SourceResume || src == protocol.SourceFork) {
			// What Claude Code says the resumed session holds comes first.
			r.usage = transcript.Usage{Tokens: *t, Known: true}
		} else if r.In.TranscriptPath != "" && src != protocol.SourceCompact {
			if usage := r.agent().ContextUsage; usage != nil {
				r.usage, _ = within(r, "reading the context size", func() transcript.Usage {
					u, _ := usage(r.Ctx, r.In.TranscriptPath, transcript.DefaultOptions)
					return u
				})
			} else if tf, err := r.readTranscript(r.In.TranscriptPath, transcript.DefaultOptions); err == nil {
				r.usage = tf.Usage
			}
		}
	}
	if r.usage.Known {
		r.ev.Context = &r.usage.Tokens
	}
	return r.usage.Tokens, r.usage.Known
}

// context is the context settings of this session: the window of its
// model, as the payload, the transcript's latest reply or the session's
// state names it, unless the configuration sets one; thresholds as
// configured, else shares of the window.
func (r *Run) context() config.Context {
	model := r.In.Model
	if model == "" {
		r.contextUsage()
		model = r.usage.Model
	}
	if s := r.sess; model == "" && s != nil && len(s.Models) > 0 {
		model = s.Models[len(s.Models)-1]
	}
	window := transcript.ModelWindow(model)
	if w := r.agent().ContextWindow; w != nil {
		window = w(model, r.Getenv)
	}
	if r.usage.Window > 0 {
		window = r.usage.Window // the client said it (Codex)
	}
	return r.Cfg.ContextFor(window)
}

func (r *Run) gatherLongRunningStart(f *facts.LongRunning, features []longrun.Feature) {
	lr := r.Cfg.LongRunning
	if f.FeatureListState == longrun.FeatureListMissing {
		f.Initializer = fmt.Sprintf(longrun.DefaultInitializer, lr.FeatureList, lr.ProgressFile, lr.InitScript)
		if p := lr.InitializerInstructions; p != "" {
			if b, ok := within(r, "reading the initializer's instructions", func() []byte {
				b, _ := safefile.ReadIn(r.Project, p, maxMemoryFile)
				return b
			}); ok && b != nil {
				f.Initializer = string(b)
			}
		}
		return
	}
	for _, feat := range longrun.NextFailing(features, lr.NextFeatures) {
		f.NextFailing = append(f.NextFailing, facts.Feature{Category: feat.Category, Description: feat.Description})
	}
	f.LastProgress, _ = within(r, "reading the progress file", func() string {
		entry, _ := longrun.LastProgressEntry(r.Project, lr.ProgressFile, 1500)
		return entry
	})
}

// gatherWork reads the commits and files since the session started, and
// how many files are uncommitted (the walk the probes did, shared).
func (r *Run) gatherWork(f *facts.LongRunning) {
	s := r.session()
	if s == nil {
		return
	}
	start := plumbing.NewHash(s.StartHead)
	ignored := r.Cfg.LongRunning.IgnorePaths
	got, err := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (facts.LongRunning, error) {
		var got facts.LongRunning
		work, err := workSince(r.Ctx, repo, start, 20)
		if err != nil {
			return got, err
		}
		for _, c := range work.Commits {
			got.SessionCommits = append(got.SessionCommits, c.Oneline())
		}
		for _, p := range work.Files {
			if !longrun.Ignored(p, ignored) {
				got.SessionFiles = append(got.SessionFiles, p)
			}
		}
		st, err := repo.Status(r.Ctx)
		for _, file := range st.Files {
			if !longrun.Ignored(file.Path, ignored) {
				got.UncommittedFiles++
			}
		}
		return got, err
	})
	// What was read before an error is kept, as it was.
	f.SessionCommits = append(f.SessionCommits, got.SessionCommits...)
	f.SessionFiles = append(f.SessionFiles, got.SessionFiles...)
	f.UncommittedFiles += got.UncommittedFiles
	if err != nil {
		f.Notes = append(f.Notes, "work since the session started not read: "+firstLine(err.Error()))
	}
}
