package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/longrun"
	"github.com/session-hooks/session-hooks/state"
	"github.com/session-hooks/session-hooks/transcript"
)

// lrFacts is what the long-running checks know at one event, gathered
// before anything is decided or rendered.
type lrFacts struct {
	features []longrun.Feature
	listErr  error // reading the feature list; os.ErrNotExist when absent
	session  *state.Session
	usage    transcript.Usage
	work     gitdiag.Since // since the session started (recovery, pre-compact)
	// uncommitted counts status lines (untracked files included), the
	// hooks' own logs and longRunning.ignorePaths left out.
	uncommitted int
	notes       []string
}

// longRunning gathers the facts when the checks are active for the
// project, or returns nil: a project without them sees nothing extra.
// The session's state is created the first time the session is seen.
func (h *hookRun) longRunning(withWork bool) *lrFacts {
	if !h.cfg.Active(h.project) {
		return nil
	}
	f := &lrFacts{}
	f.features, f.listErr = longrun.ReadFeatures(h.path(h.cfg.LongRunning.FeatureList))
	f.session = h.session(&f.notes)
	if h.in.TranscriptPath != "" {
		if u, err := transcript.ContextUsage(h.ctx, h.in.TranscriptPath, transcript.DefaultOptions); err == nil {
			f.usage = u
			if u.Known {
				h.ev.Context = &u.Tokens
			}
		}
	}
	if withWork && f.session != nil {
		start := plumbing.NewHash(f.session.StartHead)
		err := h.git.With(h.ctx, func(r *gitdiag.Repo) error {
			var err error
			if f.work, err = r.WorkSince(h.ctx, start, 20); err != nil {
				return err
			}
			st, err := r.Status(h.ctx) // the walk the probes did, shared
			for _, file := range st.Files {
				if !longrun.Ignored(file.Path, h.cfg.LongRunning.IgnorePaths) {
					f.uncommitted++
				}
			}
			return err
		})
		if err != nil {
			f.notes = append(f.notes, "work since the session started not read: "+firstLine(err.Error()))
		}
	}
	return f
}

// session loads this session's state, starting it (at the current HEAD)
// when it is new; without a session id there is none.
func (h *hookRun) session(notes *[]string) *state.Session {
	if h.sess != nil {
		return h.sess // observe, longRunning and stop all ask: read it once
	}
	h.sess = h.loadSession(notes)
	return h.sess
}

func (h *hookRun) loadSession(notes *[]string) *state.Session {
	id := h.in.SessionID
	if id == "" {
		return nil
	}
	s, note := state.Load(h.logs, id)
	if note != "" {
		*notes = append(*notes, note)
	}
	if s != nil {
		return s
	}
	var head string
	h.git.With(h.ctx, func(r *gitdiag.Repo) error {
		if hd, err := r.Head(); err == nil && !hd.Unborn {
			head = hd.Hash.String()
		}
		return nil
	})
	s = state.Start(h.logs, id, head, h.start)
	if err := h.saveState(s); err != nil {
		*notes = append(*notes, "session state not saved: "+firstLine(err.Error()))
	}
	return s
}

// saveState writes a session's state, unless --no-log.
func (h *hookRun) saveState(s *state.Session) error {
	if h.noLog {
		return nil
	}
	return s.Save(h.logs)
}

func (h *hookRun) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(h.project, p)
}

// headline is the first line of every long-running section: the session,
// the features and the context.
func (h *hookRun) headline(f *lrFacts) string {
	var parts []string
	if f.session != nil {
		parts = append(parts, fmt.Sprintf("**Session %d**", f.session.Number))
	}
	if f.listErr == nil {
		parts = append(parts, fmt.Sprintf("features passing **%d/%d**", longrun.Passing(f.features), len(f.features)))
	} else if !os.IsNotExist(f.listErr) {
		parts = append(parts, fmt.Sprintf("feature list not read (%s)", firstLine(f.listErr.Error())))
	}
	if c := h.contextLine(f.usage); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, " · ")
}

// contextLine states the context in use against the thresholds.
func (h *hookRun) contextLine(u transcript.Usage) string {
	c := h.cfg.Context
	if !u.Known {
		return ""
	}
	level := longrun.Level(u.Tokens, c.Warn, c.Critical, c.Emergency)
	if level == "" {
		return fmt.Sprintf("context %s tokens (warn at %s)", thousands(u.Tokens), thousands(c.Warn))
	}
	return fmt.Sprintf("context %s tokens: **%s**, %s", thousands(u.Tokens), level, longrun.LevelAdvice[level])
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// initSection is shown at startup and resume: where the plan stands, what
// comes next, and the discipline; or, without a feature list yet, how to
// set one up.
func (h *hookRun) initSection(f *lrFacts) string {
	lr := h.cfg.LongRunning
	var b strings.Builder
	b.WriteString("## Long-running agent\n\n" + h.headline(f) + "\n\n")
	for _, n := range f.notes {
		fmt.Fprintf(&b, "_%s_\n\n", n)
	}
	if os.IsNotExist(f.listErr) {
		b.WriteString(h.initializer() + "\n\n")
		return b.String()
	}
	if next := longrun.NextFailing(f.features, lr.NextFeatures); len(next) > 0 {
		b.WriteString("Next failing features, in list order:\n")
		for i, feat := range next {
			fmt.Fprintf(&b, "%d. %s\n", i+1, transcript.Excerpt(feat.Category+": "+feat.Description, 200))
		}
		b.WriteString("\n")
	}
	if entry, err := longrun.LastProgressEntry(h.path(lr.ProgressFile), 1500); err == nil && entry != "" {
		fmt.Fprintf(&b, "Last entry of %s:\n\n", logs.Code(lr.ProgressFile))
		for _, line := range strings.Split(transcript.Clean(entry), "\n") {
			b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Work on one feature at a time: build it, test it end to end, then set its `passes` to true (and change nothing else in %s), commit, and add an entry to %s before you stop.\n\n",
		logs.Code(lr.FeatureList), logs.Code(lr.ProgressFile))
	return b.String()
}

// initializer is the text for a project without a feature list: the
// project's own file when configured, else the built-in instructions.
func (h *hookRun) initializer() string {
	lr := h.cfg.LongRunning
	if p := lr.InitializerInstructions; p != "" {
		if b, err := os.ReadFile(h.path(p)); err == nil {
			return transcript.Clean(string(b))
		}
	}
	return fmt.Sprintf(longrun.DefaultInitializer, lr.FeatureList, lr.ProgressFile, lr.InitScript)
}

// workSection lists what this session did: for recovery and checkpoints.
func (h *hookRun) workSection(title string, f *lrFacts, commitNow bool) string {
	var b strings.Builder
	b.WriteString(title + "\n\n" + h.headline(f) + "\n\n")
	for _, n := range f.notes {
		fmt.Fprintf(&b, "_%s_\n\n", n)
	}
	if len(f.work.Commits) > 0 {
		b.WriteString("Commits this session:\n")
		for _, c := range f.work.Commits {
			fmt.Fprintf(&b, "- %s\n", c.Oneline())
		}
		b.WriteString("\n")
	} else {
		b.WriteString("No commit yet this session.\n\n")
	}
	if len(f.work.Files) > 0 {
		b.WriteString("Files modified this session:\n")
		for _, p := range f.work.Files[:min(len(f.work.Files), 30)] {
			fmt.Fprintf(&b, "- %s\n", logs.Code(p))
		}
		if n := len(f.work.Files) - 30; n > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", n)
		}
		b.WriteString("\n")
	}
	if commitNow && f.uncommitted > 0 {
		fmt.Fprintf(&b, "**Commit now:** %d file(s) have uncommitted changes.\n\n", f.uncommitted)
	}
	return b.String()
}
