package main

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/transcript"
)

// summaryInstruction starts PreCompact's stdout: Claude Code hands that
// output to the summariser as additional instructions, not to the agent.
const summaryInstruction = "When you write the summary, keep these facts recorded by session-hooks just before compaction: " +
	"the branch, the uncommitted files, the task list, the user's last request and what was being worked on."

// A snapshot reads the transcript once it has been still for
// transcriptQuiet, waiting at most transcriptSettleMax: Claude Code may
// start the hook just before writing its last batch (transcript.Settle).
const (
	transcriptQuiet     = 40 * time.Millisecond
	transcriptSettleMax = 300 * time.Millisecond
)

// handlePreCompact is PreCompact: a snapshot of the work in progress,
// saved for the SessionStart "compact" hook that follows.
func handlePreCompact(h *hookRun) string {
	results, engine := h.git.Run(h.ctx, []gitdiag.Probe{gitdiag.Branch, gitdiag.Log(3, false), gitdiag.NamesAgainstHEAD})
	h.record(results, engine)
	h.notes = append(h.notes, h.observe(false)...)
	snap := logs.Snapshot{
		Branch: "(unknown)", Trigger: orUnknown(h.in.Trigger), Session: h.in.SessionID, Time: h.start,
	}
	if r := results[0]; r.Err == nil && len(r.Lines) > 0 {
		snap.Branch = r.Lines[0]
	} else if r.Err != nil {
		snap.Branch = "(unknown: " + firstLine(r.Err.Error()) + ")"
	}
	snap.Commits, snap.CommitsErr = resultLines(results[1])
	snap.Changes, snap.ChangesErr = resultLines(results[2])
	h.addTranscript(&snap)

	text := snap.Render(logs.LogLimits)
	var checkpoint string
	if f := h.longRunning(true); f != nil {
		checkpoint = h.workSection("### Long-running checkpoint", f, true)
		text += checkpoint
	}
	text = logs.FitMarkdown(text, logs.LogBudget)
	notes := append([]string(nil), h.notes...)
	// The snapshot is what the session gets back after the compaction:
	// the one log worth waiting for the disk.
	notes = append(notes, h.writeLogWith(h.logs.WriteDurable, logs.SnapshotLog, text)...)
	if h.in.SessionID != "" {
		notes = append(notes, h.writeLogWith(h.logs.WriteDurable, logs.SessionFile(h.in.SessionID, logs.SnapshotLog), text)...)
	}
	notes = append(notes, h.keepCheckpoint(text)...)
	if h.json {
		return toJSON(struct {
			logs.Snapshot
			Notes      []string `json:"hook_notes,omitempty"`
			Checkpoint string   `json:"long_running_markdown,omitempty"`
		}{snap, notes, checkpoint})
	}
	head := summaryInstruction + "\n\n"
	for _, n := range notes {
		head += "_Note: " + n + "_\n\n"
	}
	return head + logs.FitMarkdown(text, outputBudget-logs.Len(head))
}

func resultLines(r gitdiag.Result) ([]string, string) {
	if r.Err != nil {
		return nil, firstLine(r.Err.Error())
	}
	if r.Note != "" {
		return append(r.Lines, "("+r.Note+")"), ""
	}
	return r.Lines, ""
}

// addTranscript adds what the session transcript says: the latest texts,
// the last prompt, the task list and the files touched.
func (h *hookRun) addTranscript(snap *logs.Snapshot) {
	path := h.in.TranscriptPath
	for _, t := range transcript.Tasks(transcript.ConfigDir(path), h.in.SessionID) {
		snap.Todos = append(snap.Todos, logs.Todo{Content: t.Content, Status: t.Status})
	}
	if !transcript.Settle(h.ctx, path, transcriptQuiet, transcriptSettleMax) {
		snap.Notes = append(snap.Notes, "The transcript was still being written; its last messages may be missing.")
	}
	facts, err := transcript.Read(h.ctx, path, transcript.DefaultOptions)
	if err != nil {
		snap.Notes = append(snap.Notes, "Transcript not read: "+transcript.Clean(firstLine(err.Error()))+".")
		return
	}
	snap.Texts, snap.LastPrompt, snap.Notes = facts.Texts, facts.LastPrompt, facts.Notes
	if len(snap.Todos) == 0 {
		for _, t := range facts.Todos {
			snap.Todos = append(snap.Todos, logs.Todo{Content: t.Content, Status: t.Status})
		}
	}
	for _, f := range facts.FilesTouched {
		snap.Files = append(snap.Files, h.relative(f))
	}
}

// relative shows a path inside the project relative to it.
func (h *hookRun) relative(p string) string {
	if rel, err := filepath.Rel(h.project, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
