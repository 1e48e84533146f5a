package hooks

import (
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/logs"
)

// handleEnd is SessionEnd: the state the session leaves behind, for the
// next session and for people. Claude Code shows its output to no one, but
// it is printed all the same, as the Node script did.
func handleEnd(r *Run) string {
	f := facts.End{SchemaVersion: facts.SchemaVersion, Run: r.runFacts("end")}
	handoff := r.In.SessionID != "" && r.Cfg.Handoff
	if handoff && r.In.TranscriptPath != "" {
		r.prefetchTranscript(r.In.TranscriptPath, handoffTranscript)
	}
	f.Git = r.gitFacts([]gitdiag.Probe{gitdiag.Branch, gitdiag.Log(1, true), gitdiag.StatusShort})
	r.observe(true)
	r.checkReceipt()
	var left facts.Handoff
	read := false
	if handoff {
		left, read = r.gatherHandoff(f.Git)
	}
	f.LongRunning = r.longRunning(lrBrief)
	f.Notes = append([]string(nil), r.notes...)
	f.DurationMS = float64(time.Since(r.Start).Microseconds()) / 1000

	report := renderEnd(f, r.meta(f.Git.Engine), r)
	text := report.Render(logs.LogLimits)
	writes := []logWrite{r.plainLog(logs.EndLog, text)}
	if id := r.In.SessionID; id != "" {
		// The next session's end overwrites session-end.md (a /clear ends
		// one session and starts another at once): keep each session's own.
		writes = append(writes, r.plainLog(logs.SessionFile(id, logs.EndLog), text))
		if r.Cfg.Handoff && handsOn(left, read) {
			// The session's own, and the worktree's latest, which the next
			// start reads alone (readPreviousHandoff).
			js := facts.JSON(left)
			writes = append(writes, r.sealedLog(logs.SessionFile(id, HandoffFile), js, false), r.sealedLog(HandoffFile, js, false))
		}
	}
	report.Notes = append(report.Notes, r.writeLogs(writes...)...)
	if r.JSON {
		f.Notes = report.Notes
		return facts.JSON(f)
	}
	return logs.Fit(report.Render, r.budget())
}

func renderEnd(f facts.End, meta []logs.Field, r *Run) logs.Report {
	report := logs.Report{Title: "Session End", Meta: meta, Notes: f.Notes, Commands: commands(f.Git.Probes),
		Total: time.Duration(f.DurationMS * float64(time.Millisecond))}
	if f.LongRunning != nil {
		report.Extra = "## Long-running agent\n\n" + longrun.Headline(*f.LongRunning) + "\n\n"
	}
	return report
}
