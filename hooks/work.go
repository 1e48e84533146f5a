package hooks

import (
	"context"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag"
)

// work is what was done since a point of the session (its start, a
// snapshot): the commits made on top of that point, and the files those
// commits or the work tree changed. It is a session concept, built from
// what git says.
type work struct {
	Commits []gitdiag.Commit // newest first, at most the number asked for
	Files   []string         // sorted
}

// workSince reads the work done since the commit start (zero: the branch
// had no commit then).
func workSince(ctx context.Context, repo *gitdiag.Repo, start plumbing.Hash, max int) (work, error) {
	var w work
	commits, err := repo.LogUntil(ctx, start, max)
	if err != nil {
		return w, err
	}
	w.Commits = commits
	names, err := repo.NamesSince(start)
	if err != nil {
		return w, err
	}
	files := map[string]bool{}
	for _, n := range names {
		files[n] = true
	}
	if st, err := repo.Status(ctx); err == nil {
		for _, f := range st.Files {
			files[strings.TrimSuffix(f.Path, "/")] = true
		}
	}
	for f := range files {
		w.Files = append(w.Files, f)
	}
	sort.Strings(w.Files)
	return w, nil
}
