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
	results, engine := gitdiag.Run(h.ctx, h.project, []gitdiag.Probe{gitdiag.Branch, gitdiag.Log(1, true), gitdiag.StatusShort})
	report := logs.Report{Title: "Session End", Meta: h.meta(engine), Notes: h.notes, Commands: commands(results), Total: time.Since(h.start)}
	report.Notes = append(report.Notes, h.writeLog(logs.EndLog, report.Render(logs.LogLimits))...)
	return logs.Fit(report.Render, outputBudget)
}
