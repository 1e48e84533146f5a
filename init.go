package main

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
)

// snapshotMaxAge is how old a snapshot without a matching session id may be
// and still be re-injected.
const snapshotMaxAge = time.Hour

// snapshotShare is the most of the output the re-injected snapshot takes;
// the init part keeps the rest.
const snapshotShare = 6000

// handleInit is SessionStart: what the repository looks like now, and after
// a compaction the snapshot taken just before it.
func handleInit(h *hookRun, recovery bool) string {
	probes := []gitdiag.Probe{gitdiag.Branch, gitdiag.Log(5, true), gitdiag.StatusShort}
	title := "Session Init"
	if recovery {
		title = "Session Init (post-compaction recovery)"
	} else {
		probes = append(probes, gitdiag.DiffStatUpstream)
	}
	results, engine := h.git.Run(h.ctx, probes)
	h.record(results, engine)
	h.notes = append(h.notes, h.observe(false)...)

	var snapshot recovered
	if recovery {
		snapshot = h.recoverSnapshot()
	}
	var longRunning string
	if f := h.longRunning(recovery); f != nil {
		if recovery {
			longRunning = h.workSection("## Long-running agent", f, false)
		} else {
			longRunning = h.initSection(f)
		}
	}
	report := logs.Report{Title: title, Meta: h.meta(engine), Notes: h.notes, Commands: commands(results), Total: time.Since(h.start)}

	full := report
	full.Extra, report.Extra = longRunning, logs.FitMarkdown(longRunning, 3000)
	if recovery {
		full.Extra += snapshot.render(logs.LogBudget)
		report.Extra += snapshot.render(max(2000, snapshotShare-logs.Len(report.Extra)))
	}
	report.Notes = append(report.Notes, h.writeLog(logs.InitLog, full.Render(logs.LogLimits))...)
	if h.json {
		full.Notes = report.Notes
		return toJSON(full)
	}
	return logs.Fit(report.Render, outputBudget)
}

// recovered is the outcome of looking for a snapshot: its text, or why it
// is not injected.
type recovered struct {
	text   string
	reason string
}

const (
	recoveredHeader = "---\n\n## Pre-Compaction Context\n\n"
	noSnapshot      = "_No snapshot available. This is the first compaction or the snapshot was lost._\n"
)

func (r recovered) render(budget int) string {
	switch {
	case r.text != "":
		intro := recoveredHeader + "The following was captured before compaction:\n\n"
		return intro + logs.FitMarkdown(r.text, budget-logs.Len(intro))
	case r.reason != "":
		return recoveredHeader + "_" + r.reason + "_\n"
	}
	return recoveredHeader + noSnapshot
}

// recoverSnapshot finds the snapshot of this session: its own copy under
// sessions/<id>/, else the shared file when it was written for this
// session (or, where either side has no id, within the last hour).
func (h *hookRun) recoverSnapshot() recovered {
	id := h.in.SessionID
	if id != "" {
		if b, _, err := h.logs.Read(logs.SessionFile(id, logs.SnapshotLog), logs.LogBudget); err == nil {
			return recovered{text: string(b)}
		}
	}
	b, fi, err := h.logs.Read(logs.SnapshotLog, logs.LogBudget)
	if errors.Is(err, fs.ErrNotExist) {
		return recovered{}
	} else if err != nil {
		return recovered{reason: "Snapshot not read: " + firstLine(err.Error()) + "."}
	}
	info := logs.ReadSnapshotInfo(b)
	written := info.Time
	if written.IsZero() {
		written = fi.ModTime()
	}
	age := time.Since(written)
	switch {
	case id != "" && info.Session == id:
		return recovered{text: string(b)}
	case id != "" && info.Session != "":
		return recovered{reason: fmt.Sprintf("Snapshot not injected: %s was written for session %s %s ago; this is session %s.",
			logs.SnapshotLog, info.Session, roughAge(age), id)}
	case age <= snapshotMaxAge:
		return recovered{text: string(b)}
	}
	return recovered{reason: fmt.Sprintf("Snapshot not injected: %s is %s old and names no session to match.", logs.SnapshotLog, roughAge(age))}
}

// roughAge says how long ago in the largest fitting unit.
func roughAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dmin", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%.1fh", d.Hours())
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}
