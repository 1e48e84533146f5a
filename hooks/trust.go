package hooks

import (
	"errors"
	"path/filepath"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/internal/seal"
)

// What a run reads back from .claude/logs (the previous session's
// handoff, the snapshot it re-injects) must be what this user's
// session-hooks wrote there: Logs.Read refuses a file without a valid
// seal, and logsTracked refuses everything when git tracks the directory,
// since a committed file is the repository's words, whoever wrote it.

// logsTracked says whether git tracks a file below the log directory. It
// is asked once per run, and only by runs that read a log back.
func (r *Run) logsTracked() bool {
	if r.tracked == nil {
		tracked := false
		if rel, err := filepath.Rel(r.Project, r.Logs.Path); err == nil {
			tracked, _ = gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (bool, error) {
				return repo.TracksUnder(filepath.ToSlash(rel))
			})
		}
		r.tracked = &tracked
		if tracked {
			r.note("git tracks files in .claude/logs: they are the repository's, so no handoff or snapshot was read from there")
		}
	}
	return *r.tracked
}

// refusedNote is the note for a log file that was there but not ours.
func refusedNote(what, name string, err error) string {
	if errors.Is(err, seal.ErrNotSealed) {
		return what + " " + name + " was not written by this user's session-hooks (no valid seal); ignored"
	}
	return ""
}
