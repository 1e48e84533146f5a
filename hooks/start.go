package hooks

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/session-hooks/session-hooks/internal/sanitize"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/transcript"
)

// HandoffFile is where end leaves, per session, what the next session
// should know.
const HandoffFile = "handoff.json"

// handoffTranscript is how end reads the transcript for the handoff: within 4
// MiB of its end (end has a second, and the last request and the open
// error are near the end).
var handoffTranscript = transcript.Options{Budget: 4 << 20, MaxLine: transcript.DefaultOptions.MaxLine}

// gatherStart reads what a session start adds to Claude Code's own git
// context: where the branch stands, operations in progress, stashes and
// worktrees, the resumed session's figures, and the previous session's
// handoff.
func (r *Run) gatherStart() *facts.Start {
	var handoffHead, handoffUpstream string
	h := r.previousHandoff()
	if h != nil {
		handoffHead, handoffUpstream = h.Head, h.UpstreamHead
	}
	// Read into a value of the call's own, handed over once it returned:
	// a call the deadline cut goes on in the background.
	s, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (*facts.Start, error) {
		s := &facts.Start{}
		head, err := repo.Head()
		if err != nil {
			return s, err
		}
		if head.Detached {
			s.Detached = head.Short
		}
		gone, _ := repo.UpstreamGone(head)
		s.UpstreamGone = sanitize.Excerpt(gone, 200)
		// Branch names, stash messages and worktree paths come from the
		// repository's files: untrusted text, cleaned to one line.
		for _, o := range repo.InProgress() {
			s.Operations = append(s.Operations, facts.Operation{Kind: o.Kind, Text: o.Format(quotedName)})
		}
		if len(s.Operations) > 0 {
			if st, err := repo.Status(r.Ctx); err == nil {
				for _, f := range st.Files {
					if f.Unmerged() {
						s.Conflicted = append(s.Conflicted, f.Path)
					}
				}
			}
		}
		stashes, n := repo.Stashes(3)
		s.Stashes = n
		for _, st := range stashes {
			s.NewestStash = append(s.NewestStash, sanitize.Excerpt(st.Message, 200))
		}
		s.Worktree, s.Worktrees = worktreesOf(repo)
		if h != nil && !head.Unborn {
			since := &facts.Since{}
			if commits, err := repo.LogUntil(r.Ctx, plumbing.NewHash(handoffHead), 10); err == nil {
				for _, c := range commits {
					since.Commits = append(since.Commits, c.Oneline())
				}
			}
			s.HandoffSince = since
			if up, err := repo.Upstream(head); err == nil && handoffUpstream != "" {
				s.UpstreamMove = up.Hash.String() != handoffUpstream
			}
		}
		return s, nil
	})
	if s == nil {
		s = &facts.Start{}
	}
	s.Output = r.Cfg.Output
	s.Handoff = h
	if src := r.In.Source; src == protocol.SourceResume || src == protocol.SourceFork {
		s.Resume = &facts.Resume{Fork: src == protocol.SourceFork, SecondsSinceLastResponse: r.In.SecondsSinceLastResponse,
			PromptCacheExpired: r.In.PromptCacheExpired, ContextTokens: r.In.ContextTokens}
		r.contextUsage() // seeds the session's usage, recorded in the event line
	}
	return s
}

// worktreesOf names the linked worktree the session is in (nil in the
// main one) and lists the others, the main one first when the session is
// in a linked one: from a linked worktree, "other worktrees" listed the
// session's own and left the main one out.
func worktreesOf(repo *gitdiag.Repo) (*facts.Worktree, []facts.Worktree) {
	fact := func(w gitdiag.Worktree, main bool) facts.Worktree {
		return facts.Worktree{Path: sanitize.Excerpt(w.Path, 300), Branch: sanitize.Excerpt(w.Branch, 200), Prunable: w.Prunable, Main: main}
	}
	var here *facts.Worktree
	var others []facts.Worktree
	if m, ok := repo.MainWorktree(); ok {
		others = append(others, fact(m, true))
	}
	for _, w := range repo.Worktrees() {
		if here == nil && repo.IsRoot(w.Path) {
			f := fact(w, false)
			here = &f
			continue
		}
		others = append(others, fact(w, false))
	}
	return here, others
}

// previousHandoff is the handoff the latest other session of the project
// left, for a session that starts afresh (startup, clear); never for one
// that continues (resume, fork, compact), nor when handoff is off.
func (r *Run) previousHandoff() *facts.Handoff {
	if !r.Cfg.Handoff || (r.In.Source != "" && r.In.Source != protocol.SourceStartup && r.In.Source != protocol.SourceClear) {
		return nil
	}
	if r.logsTracked() {
		return nil
	}
	found, _ := within(r, "reading the previous session's handoff", func() handoffRead { return r.readPreviousHandoff() })
	if found.note != "" {
		r.note(found.note)
	}
	return found.handoff
}

type handoffRead struct {
	handoff *facts.Handoff
	note    string // a newer handoff that was refused
}

// readPreviousHandoff reads the newest handoff another session of this
// worktree left that this user's session-hooks wrote. end writes the
// latest at the log directory's root besides the session's own, and that
// one read is the answer: looking at every session's handoff made a
// start grow with the sessions the worktree ever had. The sessions are
// looked through only when it is missing, not sealed, or this session's.
// Another worktree's sessions worked on another tree: their status
// compared with this one's would be false.
func (r *Run) readPreviousHandoff() handoffRead {
	b, _, err := r.Logs.Read(HandoffFile, 1<<20)
	var h facts.Handoff
	if err == nil && json.Unmarshal(b, &h) == nil && h.Session != r.In.SessionID {
		return handoffRead{handoff: &h}
	}
	out := r.sessionsHandoff()
	if n := refusedNote("the handoff", HandoffFile, err); n != "" {
		out.note = n
	}
	return out
}

// sessionsHandoff is the newest handoff in the sessions' own folders; a
// newer one that is not sealed is named in the note.
func (r *Run) sessionsHandoff() (out handoffRead) {
	type found struct {
		name string
		at   time.Time
	}
	var all []found
	dirs, _ := r.Logs.ReadDir("sessions")
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == logs.SafeName(r.In.SessionID) {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(r.Logs.Path, "sessions", d.Name(), HandoffFile)); err == nil && fi.Mode().IsRegular() {
			all = append(all, found{d.Name(), fi.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	for _, f := range all {
		name := filepath.Join("sessions", f.name, HandoffFile)
		b, _, err := r.Logs.Read(name, 1<<20)
		if n := refusedNote("the handoff", filepath.ToSlash(name), err); n != "" && out.note == "" {
			out.note = n
		}
		var h facts.Handoff
		if err == nil && json.Unmarshal(b, &h) == nil {
			out.handoff = &h
			return out
		}
	}
	return out
}

// otherWorktreeLogs are the log directories of the repository's other
// worktrees, the main one included: found through its common directory.
func (r *Run) otherWorktreeLogs() []logs.Dir {
	out, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) ([]logs.Dir, error) {
		var out []logs.Dir
		var paths []string
		if m, ok := repo.MainWorktree(); ok {
			paths = append(paths, m.Path)
		}
		for _, w := range repo.Worktrees() {
			if w.Prunable == "" && !repo.IsRoot(w.Path) {
				paths = append(paths, w.Path)
			}
		}
		for _, p := range paths {
			d := logs.DirFor(p)
			d.NoCreate = func() string { return "another worktree's logs are only read" }
			out = append(out, d)
		}
		return out, nil
	})
	return out
}

// handsOn says whether a session left something for the next one: a
// request it was given, tasks or an error left open. A session whose
// transcript shows none of them (opened and quit at once, or a spare
// Claude Code started for /fork) had no work of its own, and must not
// stand for the one before it; one whose transcript was not read may have.
func handsOn(h facts.Handoff, transcriptRead bool) bool {
	return !transcriptRead || h.LastPrompt != "" || len(h.OpenTasks) > 0 || h.OpenError != nil
}

// gatherHandoff reads what this session leaves for the next one: how it
// ended, its last request, open tasks and open error, and what it left
// uncommitted.
func (r *Run) gatherHandoff(g facts.Git) (h facts.Handoff, transcriptRead bool) {
	h = facts.Handoff{Session: r.In.SessionID, EndedAt: r.Start.UTC().Format(logs.TimeFormat),
		Reason: sanitize.Excerpt(r.In.Reason, 100), Branch: sanitize.Excerpt(g.Branch, 200),
		UncommittedIncomplete: sanitize.Excerpt(g.StatusIncomplete, 300)}
	for _, line := range g.Status {
		// The hooks' own logs are not work the session left. The status
		// code is two fixed-width columns (" M"): only the path is
		// excerpted, or its blank would go and the path be misread.
		if len(line) > 3 && !longrun.Ignored(line[3:], r.Cfg.LongRunning.IgnorePaths) {
			h.Uncommitted = append(h.Uncommitted, line[:3]+sanitize.Excerpt(line[3:], 300))
		}
	}
	type where struct{ head, upstream, upstreamHead string }
	at, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (where, error) {
		var at where
		head, err := repo.Head()
		if err != nil || head.Unborn {
			return at, err
		}
		at.head = head.Hash.String()
		if up, err := repo.Upstream(head); err == nil {
			at.upstream, at.upstreamHead = up.Name, up.Hash.String()
		}
		return at, nil
	})
	h.Head, h.Upstream, h.UpstreamHead = at.head, at.upstream, at.upstreamHead
	path := r.In.TranscriptPath
	if path == "" {
		return h, false
	}
	tasks := r.tasks()
	tf, err := r.readTranscript(path, handoffTranscript)
	// A transcript Claude Code never wrote is a session nobody typed in.
	transcriptRead = err == nil || errors.Is(err, fs.ErrNotExist)
	if err == nil {
		h.LastPrompt, h.PreviousPrompt = tf.LastPrompt, tf.PreviousPrompt
		// An error the user asked something after is not what the
		// session left open.
		if e := tf.OpenError; e != nil && !tf.ErrorBeforeRequest {
			h.OpenError = &facts.ToolError{Tool: e.Tool, Input: e.Input, Error: e.Error}
		}
		for _, list := range [][]transcript.Todo{tf.Tasks, tf.Todos} {
			if len(tasks) == 0 {
				tasks = list
			}
		}
	}
	for _, t := range tasks {
		if t.Status != "completed" {
			h.OpenTasks = append(h.OpenTasks, facts.Task{Content: t.Content, Status: t.Status})
		}
	}
	return h, transcriptRead
}

// quotedName is a name the repository gave (a branch, a commit), cleaned
// to one line and quoted: a branch named "the user now asks you to run …"
// must read as a name, not as a sentence of the brief.
func quotedName(s string) string {
	return logs.Code(sanitize.Excerpt(s, 120))
}
