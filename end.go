package main

import (
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
)

// handleEnd is SessionEnd: the state the session leaves behind, for the
// next session and for people. Claude Code shows its output to no one, but
// it is printed all the same, as the Node script did.
func handleEnd(h *hookRun) string {
	results, engine := h.git.Run(h.ctx, []gitdiag.Probe{gitdiag.Branch, gitdiag.Log(1, true), gitdiag.StatusShort})
	h.record(results, engine)
	h.notes = append(h.notes, h.observe(true)...)
	report := logs.Report{Title: "Session End", Meta: h.meta(engine), Notes: h.notes, Commands: commands(results), Total: time.Since(h.start)}
	if f := h.longRunning(false); f != nil {
		report.Extra = "## Long-running agent\n\n" + h.headline(f) + "\n\n"
	}
	text := report.Render(logs.LogLimits)
	report.Notes = append(report.Notes, h.writeLog(logs.EndLog, text)...)
	if h.in.SessionID != "" {
		// The next session's end overwrites session-end.md (a /clear ends
		// one session and starts another at once): keep each session's own.
		report.Notes = append(report.Notes, h.writeLog(logs.SessionFile(h.in.SessionID, logs.EndLog), text)...)
	}
	if h.json {
		return toJSON(report)
	}
	return logs.Fit(report.Render, outputBudget)
}
