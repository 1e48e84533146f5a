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
func (r *Repo) FileAtHEAD(path string, limit int64) (content []byte, ok bool, err error) {
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
		b, err := readBlob(store, found.Hash, limit)
		return b, err == nil, err
	}
	return nil, false, nil
}

// LogUntil is `git log -n max stop..HEAD` read newest first until stop:
// the commits made on top of stop (zero: the branch had none), at most max.
func (r *Repo) LogUntil(ctx context.Context, stop plumbing.Hash, max int) ([]Commit, error) {
	head, err := r.Head()
	if err != nil || head.Unborn || head.Hash == stop {
		return nil, err
	}
	commits, err := r.Log(ctx, max+1, false)
	if err != nil {
		return nil, err
	}
	var out []Commit
	for _, c := range commits {
		if c.Hash == stop || len(out) == max {
			break
		}
		out = append(out, c)
	}
	return out, nil
}

// NamesSince is `git diff --name-only from HEAD` between commits: the paths
// whose content differs between the tree of from (zero: the empty tree)
// and HEAD's, sorted.
func (r *Repo) NamesSince(from plumbing.Hash) ([]string, error) {
	head, err := r.Head()
	if err != nil || head.Unborn || head.Hash == from {
		return nil, err
	}
	store, err := r.objects()
	if err != nil {
		return nil, err
	}
	var fromTree plumbing.Hash
	if !from.IsZero() {
		if c, err := store.Commit(from); err == nil {
			fromTree = c.Tree
		}
	}
	to, err := store.Commit(head.Hash)
	if err != nil {
		return nil, err
	}
	var changes []fileChange
	if err := diffTrees(store, fromTree, to.Tree, "", 0, &changes); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.path)
	}
	sort.Strings(out)
	return out, nil
}
