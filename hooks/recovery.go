package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/session-hooks/session-hooks/facts"
	"github.com/session-hooks/session-hooks/logs"
)

// snapshotMaxAge is how old a snapshot without a matching session id may be
// and still be re-injected.
const snapshotMaxAge = time.Hour

const (
	recoveredHeader = "---\n\n## Pre-Compaction Context\n\n"
	noSnapshot      = "_No snapshot available. This is the first compaction or the snapshot was lost._\n"
)

// recoverSnapshot finds the snapshot of this session: its own copy under
// sessions/<id>/, else the shared file when chooseShared accepts it.
func (r *Run) recoverSnapshot() facts.Recovery {
	id := r.In.SessionID
	if id != "" {
		if b, _, err := r.Logs.Read(logs.SessionFile(id, logs.SnapshotLog), logs.LogBudget); err == nil {
			return facts.Recovery{Found: true, Snapshot: string(b)}
		}
	}
	b, fi, err := r.Logs.Read(logs.SnapshotLog, logs.LogBudget)
	if errors.Is(err, fs.ErrNotExist) {
		return facts.Recovery{}
	} else if err != nil {
		return facts.Recovery{Reason: "Snapshot not read: " + firstLine(err.Error()) + "."}
	}
	info := logs.ReadSnapshotInfo(b)
	if info.Time.IsZero() {
		info.Time = fi.ModTime()
	}
	if reason := chooseShared(info, id, r.Now()); reason != "" {
		return facts.Recovery{Reason: reason}
	}
	return facts.Recovery{Found: true, Snapshot: string(b)}
}

// chooseShared decides whether the shared snapshot file, written at
// info.Time for info.Session, belongs to session id at now: it does when
// the ids match, or, where either side has no id, when it is at most
// snapshotMaxAge old. It returns why not, or "".
func chooseShared(info logs.SnapshotInfo, id string, now time.Time) string {
	age := now.Sub(info.Time)
	switch {
	case id != "" && info.Session == id:
		return ""
	case id != "" && info.Session != "":
		return fmt.Sprintf("Snapshot not injected: %s was written for session %s %s ago; this is session %s.",
			logs.SnapshotLog, info.Session, roughAge(age), id)
	case age <= snapshotMaxAge:
		return ""
	}
	return fmt.Sprintf("Snapshot not injected: %s is %s old and names no session to match.", logs.SnapshotLog, roughAge(age))
}

// renderRecovered is the re-injected part of the recovery output.
func renderRecovered(r facts.Recovery, budget int) string {
	switch {
	case r.Found:
		intro := recoveredHeader + "The following was captured before compaction:\n\n"
		return intro + logs.FitMarkdown(r.Snapshot, budget-logs.Len(intro))
	case r.Reason != "":
		return recoveredHeader + "_" + r.Reason + "_\n"
	}
	return recoveredHeader + noSnapshot
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
