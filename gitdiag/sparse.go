package gitdiag

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A sparse checkout leaves paths out of the work tree on purpose, marked
// skip-worktree in the index; a sparse index (index.sparse) goes further
// and records a whole directory outside the cone as one entry, "dir/",
// holding its tree id. Status compares such a directory with HEAD's by
// tree id; where they differ, or where the directory is on disk after all,
// it is expanded into its files, as git expands it. With core.sparseCheckout,
// git also takes back into the status the skip-worktree files present on
// disk (clear_skip_worktree_from_present_files); so does gitdiag.

// prepareSparse expands the sparse directories status must look into and
// clears skip-worktree from the files present on disk.
func (b *statusBuilder) prepareSparse(head Head) error {
	sparseCheckout := b.repo.cfg.GetBool("core.sparseCheckout", false) &&
		!b.repo.cfg.GetBool("sparse.expectFilesOutsideOfPatterns", false)
	if b.idx.Sparse {
		if err := b.expandSparseDirs(head, sparseCheckout); err != nil {
			return err
		}
	}
	if !sparseCheckout {
		return nil
	}
	var missing string // a directory found absent: nothing below it is looked up
	for _, e := range b.idx.Entries {
		if !e.SkipWorktree || e.IsSparseDir() || missing != "" && strings.HasPrefix(e.Name, missing) {
			continue
		}
		if b.present(e.Name) {
			e.SkipWorktree = false
		} else if dir := parentDir(e.Name); dir != "" && !b.present(dir) {
			missing = dir + "/"
		}
	}
	return nil
}

// present says whether path exists in the work tree.
func (b *statusBuilder) present(path string) bool {
	_, err := os.Lstat(filepath.Join(b.repo.Root, filepath.FromSlash(strings.TrimSuffix(path, "/"))))
	return err == nil
}

// expandSparseDirs replaces the sparse directory entries that differ from
// HEAD, or are present on disk, by entries for their files.
func (b *statusBuilder) expandSparseDirs(head Head, sparseCheckout bool) error {
	store, err := b.repo.objects()
	if err != nil {
		return err
	}
	var headTree plumbing.Hash
	if !head.Unborn {
		c, err := store.Commit(head.Hash)
		if err != nil {
			return fmt.Errorf("fatal: bad HEAD commit %s: %w", head.Hash, err)
		}
		headTree = c.Tree
	}
	trees := treeCache{store: store, read: map[plumbing.Hash][]objects.TreeEntry{}}
	out := make([]*index.Entry, 0, len(b.idx.Entries))
	for _, e := range b.idx.Entries {
		if !e.IsSparseDir() {
			out = append(out, e)
			continue
		}
		dir := strings.TrimSuffix(e.Name, "/")
		inHEAD, ok := trees.subtree(headTree, dir)
		if ok && inHEAD == e.Hash && !(sparseCheckout && b.present(dir)) {
			b.sparseDirs[dir+"/"] = e.Hash
			out = append(out, e)
			continue
		}
		files, err := treeFiles(store, e.Hash, e.Name, strings.Count(e.Name, "/"))
		if err != nil {
			return fmt.Errorf("fatal: cannot expand the sparse directory %s: %w", e.Name, err)
		}
		out = append(out, files...)
	}
	b.idx.Entries = out
	return nil
}

// treeCache reads each tree once: the sparse directories of a large
// index share the trees above them.
type treeCache struct {
	store *objects.Store
	read  map[plumbing.Hash][]objects.TreeEntry
}

func (c treeCache) tree(h plumbing.Hash) ([]objects.TreeEntry, error) {
	if entries, ok := c.read[h]; ok {
		return entries, nil
	}
	entries, err := c.store.Tree(h)
	if err == nil {
		c.read[h] = entries
	}
	return entries, err
}

// subtree finds the tree at dir ("a/b") below the tree root.
func (c treeCache) subtree(root plumbing.Hash, dir string) (plumbing.Hash, bool) {
	if root.IsZero() {
		return root, false
	}
	h := root
	for _, name := range strings.Split(dir, "/") {
		entries, err := c.tree(h)
		if err != nil {
			return h, false
		}
		found := false
		for _, te := range entries {
			if te.Name == name && filemode.FileMode(te.Mode) == filemode.Dir {
				h, found = te.Hash, true
				break
			}
		}
		if !found {
			return h, false
		}
	}
	return h, true
}

// treeFiles lists the files below a tree as skip-worktree index entries
// named from prefix ("dir/"), in index order (a tree's order is the
// order of full paths).
func treeFiles(store *objects.Store, tree plumbing.Hash, prefix string, depth int) ([]*index.Entry, error) {
	if depth > objects.MaxTreeDepth {
		return nil, objects.ErrTooDeep
	}
	entries, err := store.Tree(tree)
	if err != nil {
		return nil, err
	}
	var out []*index.Entry
	for _, te := range entries {
		if filemode.FileMode(te.Mode) == filemode.Dir {
			sub, err := treeFiles(store, te.Hash, prefix+te.Name+"/", depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		out = append(out, &index.Entry{Name: prefix + te.Name, Hash: te.Hash, Mode: filemode.FileMode(te.Mode), SkipWorktree: true})
	}
	return out, nil
}
