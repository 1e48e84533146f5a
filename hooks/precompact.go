package hooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/transcript"
)

// summaryInstruction starts PreCompact's stdout: Claude Code hands that
// output to the summariser as additional instructions, and for a manual
// /compact also records it in the transcript, where the model reads it
// again beside the recovery. So it is a short list of what the summary
// must keep (keepBudget), never a second copy of the snapshot.
const summaryInstruction = "When you write the summary, keep these facts, which session-hooks recorded just before this compaction:"

// keepBudget bounds PreCompact's stdout.
const keepBudget = 800

// A snapshot reads the transcript once it has been still for
// transcriptQuiet, waiting at most transcriptSettleMax: Claude Code may
// start the hook just before writing its last batch (transcript.Settle).
const (
	transcriptQuiet     = 40 * time.Millisecond
	transcriptSettleMax = 300 * time.Millisecond
)

// handlePreCompact is PreCompact: a snapshot of the work in progress,
// saved for the SessionStart "compact" hook that follows.
func handlePreCompact(r *Run) string {
	if r.agent().LateRecovery && !r.agent().CompactHookCompacts {
		r.ev.Compacted = new(bool) // it fires before every request
		return handlePreCompress(r)
	}
	r.ev.Compacted = ptrTrue()
	f := gatherPreCompact(r)
	text := renderSnapshot(f, r)
	// The snapshot is what the session gets back after the compaction:
	// the one log worth waiting for the disk.
	keep := logWrite{"checkpoints/", text, func(_ string, content []byte) error {
		return r.Logs.KeepCheckpoint(r.Start, orUnknown(r.In.SessionID), string(content), r.Cfg.Checkpoints)
	}}
	notes := r.writeLogs(append(r.snapshotWrites(text, f.Snapshot, true), keep)...)
	f.HookNotes = append(f.HookNotes, notes...)
	if s := r.session(); r.agent().CompactHookCompacts && s != nil && len(notes) == 0 {
		// No event follows the compaction: the next prompt or tool
		// result gives this snapshot back, once.
		s.SnapshotCompaction = "preCompact " + r.Start.UTC().Format(time.RFC3339Nano)
		r.saveState(s)
	}
	if r.JSON {
		return facts.JSON(f)
	}
	if r.In.Trigger == protocol.TriggerManual && r.agent().EchoesManualCompact {
		// The keep list would reach the model twice: echoed in the
		// session after the compaction, and as the recovery that follows.
		r.note("the keep list was not printed: the client records a manual compaction's output in the session, and the recovery right after it gives the snapshot")
		return ""
	}
	return renderKeepList(f.Snapshot, f.HookNotes)
}

// snapshotWrites are the files a snapshot is kept in: the project's
// pre-compact-state.md, the session's copy and its facts (never waited
// for: the markdown is what the recovery reads).
func (r *Run) snapshotWrites(text string, snap facts.Snapshot, durable bool) []logWrite {
	ws := []logWrite{r.sealedLog(logs.SnapshotLog, text, durable)}
	if id := r.In.SessionID; id != "" {
		ws = append(ws, r.sealedLog(logs.SessionFile(id, logs.SnapshotLog), text, durable),
			r.sealedLog(logs.SessionFile(id, SnapshotFacts), facts.JSON(snap), false))
	}
	return ws
}

// renderKeepList is what the summary must keep, most important first, in
// at most keepBudget characters: the request, the plan, the open tasks,
// the open error, the files written, the branch. A fact that does not fit
// is left to the recovery, which gives the whole snapshot back. Every text
// in it is the session's or the repository's, quoted: the summariser must
// read a request "ignore the above" or a file named as an order as data.
func renderKeepList(s facts.Snapshot, notes []string) string {
	var items []string
	if s.LastPrompt != "" {
		items = append(items, "the user's last request: "+quote(s.LastPrompt, 220))
	}
	if p := s.Plan; p != nil {
		state := "proposed"
		if p.Approved {
			state = "approved"
		}
		items = append(items, "the "+state+" plan: "+quote(p.Text, 120))
	}
	var open []string
	for _, t := range s.Tasks {
		if t.Status != "completed" {
			open = append(open, quote(t.Content, 80))
		}
	}
	if len(open) > 0 {
		items = append(items, "open tasks: "+listOf(open, 4))
	}
	if e := s.OpenError; e != nil {
		items = append(items, "the last tool call failed: "+quote(e.Tool, 40)+" "+quote(e.Input, 60))
	}
	if len(s.FilesTouched) > 0 {
		var files []string
		for _, f := range s.FilesTouched {
			files = append(files, quote(f, 120))
		}
		items = append(items, "files written: "+listOf(files, 5))
	}
	if s.Branch != "" {
		line := "branch " + logs.Code(s.Branch)
		if n := len(s.Uncommitted); n > 0 {
			line += fmt.Sprintf(", %d uncommitted file(s)", n)
		}
		items = append(items, line)
	}
	// What could not be read or written is said, in one line each: the
	// hook's contract.
	for _, n := range append(append([]string(nil), s.Notes...), notes...) {
		items = append(items, "(session-hooks: "+sanitize.Excerpt(n, 200)+")")
	}
	out := summaryInstruction + "\n"
	for _, it := range items {
		line := "- " + it + "\n"
		if logs.Len(out+line) > keepBudget {
			break
		}
		out += line
	}
	return out
}

// quote is the session's or the repository's text, cut to one line of at
// most n characters, as a code span.
func quote(s string, n int) string {
	return logs.Code(sanitize.Excerpt(s, n))
}

// listOf joins the first n items, saying how many more there are.
func listOf(items []string, n int) string {
	out := strings.Join(firstN(items, n), "; ")
	if len(items) > n {
		out += fmt.Sprintf(" (and %d more)", len(items)-n)
	}
	return out
}

func gatherPreCompact(r *Run) facts.PreCompact {
	f := facts.PreCompact{SchemaVersion: facts.SchemaVersion, Run: r.runFacts("pre-compact")}
	f.Git = r.gitFacts([]gitdiag.Probe{gitdiag.Branch, gitdiag.Log(3, false), gitdiag.NamesAgainstHEAD, gitdiag.Untracked})
	r.observe(false)
	f.Snapshot = facts.Snapshot{Branch: "(unknown)", Trigger: orUnknown(r.In.Trigger), Session: r.In.SessionID,
		Time: r.Start.UTC().Format(logs.TimeFormat)}
	if p := f.Git.Probes[0]; p.OK && len(p.Output) > 0 {
		f.Snapshot.Branch = p.Output[0]
	} else if !p.OK {
		f.Snapshot.Branch = "(unknown: " + p.Error + ")"
	}
	f.Snapshot.Head, _ = gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (string, error) {
		if h, err := repo.Head(); err == nil && !h.Unborn {
			return h.Hash.String(), nil
		}
		return "", nil
	})
	f.Snapshot.Commits, f.Snapshot.CommitsError = probeLines(f.Git.Probes[1])
	f.Snapshot.Uncommitted, f.Snapshot.UncommitError = probeLines(f.Git.Probes[2])
	// An untracked file is uncommitted work too (the file the agent just
	// wrote, above all), as the handoff counts it; the hooks' own logs
	// are not.
	if p := f.Git.Probes[3]; p.OK && f.Snapshot.UncommitError == "" {
		for _, name := range p.Output {
			if !longrun.Ignored(name, r.Cfg.LongRunning.IgnorePaths) {
				f.Snapshot.Uncommitted = append(f.Snapshot.Uncommitted, name)
			}
		}
	}
	r.addTranscript(&f.Snapshot)
	f.LongRunning = r.longRunning(lrWork)
	f.HookNotes = append([]string(nil), r.notes...)
	f.DurationMS = float64(time.Since(r.Start).Microseconds()) / 1000
	return f
}

// renderSnapshot is the snapshot's markdown, with the long-running
// checkpoint after it when the checks are on.
func renderSnapshot(f facts.PreCompact, r *Run) string {
	text := logs.RenderSnapshot(f.Snapshot, logs.LogLimits)
	if f.LongRunning != nil {
		text += longrun.WorkSection("### Long-running checkpoint", *f.LongRunning, true)
	}
	return logs.FitMarkdown(text, logs.LogBudget)
}

// before says whether the timestamp a is before b; false when either is
// unknown.
func before(a, b string) bool {
	ta, err1 := time.Parse(time.RFC3339Nano, a)
	tb, err2 := time.Parse(time.RFC3339Nano, b)
	return err1 == nil && err2 == nil && ta.Before(tb)
}

func probeLines(p facts.Probe) ([]string, string) {
	if !p.OK {
		return nil, p.Error
	}
	if p.Note != "" {
		return append(p.Output, "("+p.Note+")"), ""
	}
	return p.Output, ""
}

// addTranscript adds what the session transcript says: the latest texts,
// the last prompt, the task list and the files touched.
func (r *Run) addTranscript(snap *facts.Snapshot) {
	path := r.In.TranscriptPath
	for _, t := range r.tasks() {
		snap.Tasks = append(snap.Tasks, facts.Task{Content: t.Content, Status: t.Status})
	}
	// A client that runs the hook before every request has written the
	// transcript by then; waiting would delay every request.
	everyRequest := r.agent().LateRecovery && !r.agent().CompactHookCompacts
	if settled, ok := within(r, "waiting for the transcript", func() bool {
		return everyRequest || !r.agent().WritesLate || transcript.Settle(r.Ctx, path, transcriptQuiet, transcriptSettleMax)
	}); ok && !settled {
		snap.Notes = append(snap.Notes, "The transcript was still being written; its last messages may be missing.")
	}
	tf, err := r.readTranscript(path, transcript.DefaultOptions)
	if err != nil {
		snap.Notes = append(snap.Notes, "Transcript not read: "+sanitize.Clean(firstLine(err.Error()))+".")
		return
	}
	snap.AssistantTexts, snap.LastPrompt, snap.PreviousPrompt = tf.Texts, tf.LastPrompt, tf.PreviousPrompt
	snap.LastPromptAt, snap.TasksChangedAt, snap.PermissionMode = tf.LastPromptAt, tf.TasksChangedAt, tf.PermissionMode
	snap.TasksStale = before(tf.TasksChangedAt, tf.LastPromptAt)
	if p := tf.Plan; p != nil {
		snap.Plan = &facts.Plan{Text: p.Text, Approved: p.Approved}
	}
	snap.FollowUps = tf.FollowUps
	snap.Notes = append(snap.Notes, tf.Notes...)
	// Claude Code's task directory is the list as it stands; without it
	// the task tools' calls rebuild it; else the newest TodoWrite stands.
	for _, list := range [][]transcript.Todo{tf.Tasks, tf.Todos} {
		if len(snap.Tasks) > 0 {
			break
		}
		for _, t := range list {
			snap.Tasks = append(snap.Tasks, facts.Task{Content: t.Content, Status: t.Status})
		}
	}
	for _, p := range tf.FilesTouched {
		snap.FilesTouched = append(snap.FilesTouched, r.relative(p))
	}
	if e := tf.OpenError; e != nil {
		snap.OpenError = &facts.ToolError{Tool: e.Tool, Input: e.Input, Error: e.Error}
	}
	if c := tf.InFlight; c != nil {
		snap.InFlight = &facts.ToolCall{Tool: c.Tool, Input: c.Input}
	}
	// The walk found the usage already: the long-running checkpoint and
	// the event line take it from there instead of reading the tail again.
	r.usage, r.usageRead = tf.Usage, true
	if tokens, ok := r.contextUsage(); ok {
		snap.ContextTokens, snap.ContextWindow = &tokens, r.context().Window
	}
}
