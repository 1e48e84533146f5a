package gitdiag

import (
	"context"
	"sort"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/go-git/go-git/v5/plumbing"
)

// FileAtHEAD returns a file's content in the HEAD commit; ok is false when
// HEAD has no such file (or no commit).
func (r *Repo) FileAtHEAD(path string) (content []byte, ok bool, err error) {
	head, err := r.Head()
	if err != nil || head.Unborn {
		return nil, false, err
	}
	store, err := r.objects()
	if err != nil {
		return nil, false, err
	}
	c, err := store.Commit(head.Hash)
	if err != nil {
		return nil, false, err
	}
	tree := c.Tree
	parts := strings.Split(path, "/")
	for i, name := range parts {
		entries, err := store.Tree(tree)
		if err != nil {
			return nil, false, err
		}
		var found *objects.TreeEntry
		for j := range entries {
			if entries[j].Name == name {
				found = &entries[j]
			}
		}
		if found == nil {
			return nil, false, nil
		}
		if i < len(parts)-1 {
			if found.Mode != 0o40000 {
				return nil, false, nil
			}
			tree = found.Hash
			continue
		}
		b, err := store.ReadAs(found.Hash, objects.TypeBlob)
		return b, err == nil, err
	}
	return nil, false, nil
}

// Since is the work done since a session started: the commits made on top
// of its start, and the files those commits or the work tree changed.
type Since struct {
	Commits []Commit // newest first, at most the number asked for
	Files   []string // sorted
}

// WorkSince lists what changed since the commit start (zero: the branch
// had no commit). Commits are read newest first until start is reached.
func (r *Repo) WorkSince(ctx context.Context, start plumbing.Hash, max int) (Since, error) {
	var s Since
	head, err := r.Head()
	if err != nil || head.Unborn {
		return s, err
	}
	store, err := r.objects()
	if err != nil {
		return s, err
	}
	files := map[string]bool{}
	if head.Hash != start {
		commits, err := r.Log(ctx, max+1, false)
		if err != nil {
			return s, err
		}
		for _, c := range commits {
			if c.Hash == start || len(s.Commits) == max {
				break
			}
			s.Commits = append(s.Commits, c)
		}
		var from plumbing.Hash
		if !start.IsZero() {
			if c, err := store.Commit(start); err == nil {
				from = c.Tree
			}
		}
		to, err := store.Commit(head.Hash)
		if err != nil {
			return s, err
		}
		var changes []fileChange
		if err := diffTrees(store, from, to.Tree, "", &changes); err != nil {
			return s, err
		}
		for _, c := range changes {
			files[c.path] = true
		}
	}
	st, err := r.Status(ctx)
	if err == nil {
		for _, f := range st.Files {
			files[strings.TrimSuffix(f.Path, "/")] = true
		}
	}
	for f := range files {
		s.Files = append(s.Files, f)
	}
	sort.Strings(s.Files)
	return s, nil
}
