package hooks

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag"

	"github.com/session-hooks/session-hooks/hooks/facts"
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
	if r.logsTracked() {
		return facts.Recovery{Reason: "Snapshot not read: git tracks files in .claude/logs, so they are the repository's, not this session's."}
	}
	others := r.otherWorktreeLogs()
	rec, ok := within(r, "reading the snapshot", func() facts.Recovery { return r.readSnapshot(r.sessionLogs(others)) })
	if !ok {
		return facts.Recovery{Reason: "Snapshot not read: the hook's deadline passed."}
	}
	if rec.Found && rec.Facts != nil {
		rec.Since = r.since(*rec.Facts)
	}
	return rec
}

// sessionLogs is the log directory that holds this session's snapshot:
// this worktree's, else another worktree's of the repository that has it
// (the session ran there before).
func (r *Run) sessionLogs(others []logs.Dir) logs.Dir {
	id := r.In.SessionID
	if id == "" {
		return r.Logs
	}
	for _, d := range append([]logs.Dir{r.Logs}, others...) {
		if _, err := os.Lstat(filepath.Join(d.Path, logs.SessionFile(id, logs.SnapshotLog))); err == nil {
			return d
		}
	}
	return r.Logs
}

// readSnapshot reads the snapshot files (the session's own from dir);
// what git says changed since is added by the caller, which may use the
// repository.
func (r *Run) readSnapshot(dir logs.Dir) facts.Recovery {
	id := r.In.SessionID
	if id != "" {
		if b, _, err := dir.Read(logs.SessionFile(id, logs.SnapshotLog), logs.LogReadBytes); err == nil {
			rec := facts.Recovery{Found: true, Snapshot: string(b), Nonce: newNonce()}
			if snap, ok := savedSnapshot(dir, id); ok {
				rec.Facts = &snap
				if at, err := time.Parse(logs.TimeFormat, snap.Time); err == nil {
					rec.AgeMS = float64(r.Now().Sub(at).Milliseconds())
				}
			}
			return rec
		}
	}
	b, fi, err := r.Logs.Read(logs.SnapshotLog, logs.LogReadBytes)
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
	return facts.Recovery{Found: true, Snapshot: string(b), Nonce: newNonce()}
}

// since reads what git says changed after the snapshot: the commits made
// on top of its HEAD, and the files uncommitted then that are clean now.
func (r *Run) since(snap facts.Snapshot) *facts.Since {
	s, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (*facts.Since, error) {
		work, err := workSince(r.Ctx, repo, plumbing.NewHash(snap.Head), 10)
		if err != nil {
			return nil, err
		}
		st, err := repo.Status(r.Ctx)
		if err != nil || st.Incomplete != "" {
			return nil, err
		}
		s := &facts.Since{}
		for _, c := range work.Commits {
			s.Commits = append(s.Commits, c.Oneline())
		}
		dirty := map[string]bool{}
		for _, n := range append(st.NamesAgainstHEAD(), st.UntrackedNames()...) {
			dirty[n] = true
		}
		for _, f := range snap.Uncommitted {
			if !dirty[f] && !strings.HasPrefix(f, "(") {
				s.NowClean = append(s.NowClean, f)
			}
		}
		return s, nil
	})
	return s
}

// newNonce marks one injected recovery: 8 random hex digits.
func newNonce() string {
	b := make([]byte, 4)
	rand.Read(b)
	return hex.EncodeToString(b)
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
		return fmt.Sprintf("Snapshot not injected: %s was written for session %s %s; this is session %s.",
			logs.SnapshotLog, info.Session, writtenWhen(age), id)
	case age <= snapshotMaxAge && age >= -snapshotMaxAge:
		return ""
	}
	return fmt.Sprintf("Snapshot not injected: %s was written %s and names no session to match.", logs.SnapshotLog, writtenWhen(age))
}

// writtenWhen says how long ago a file of age was written; a file dated
// after now (its writer's clock ran ahead, or this one is behind) is said
// to be so, never "-86399s ago".
func writtenWhen(age time.Duration) string {
	if age < 0 {
		return roughAge(-age) + " ahead of this machine's clock"
	}
	return roughAge(age) + " ago"
}

// renderRecovered is the re-injected part of the recovery output: the
// snapshot's facts framed as history when pre-compact saved them, else
// the saved markdown.
func renderRecovered(r facts.Recovery, budget int) string {
	switch {
	case r.Found && r.Facts != nil:
		return renderHistory(r, budget)
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
