package gitdiag

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// isSparseDir says whether e is a sparse index's directory entry.
func (e *indexEntry) isSparseDir() bool {
	return e.mode == filemode.Dir && strings.HasSuffix(e.name, "/")
}

// prepareSparse expands the sparse directories status must look into and
// clears skip-worktree from the files present on disk.
func (b *statusBuilder) prepareSparse(head Head) error {
	sparseCheckout := b.repo.cfg.GetBool("core.sparseCheckout", false) &&
		!b.repo.cfg.GetBool("sparse.expectFilesOutsideOfPatterns", false)
	if b.idx.sparse {
		if err := b.expandSparseDirs(head, sparseCheckout); err != nil {
			return err
		}
	}
	if !sparseCheckout {
		return nil
	}
	var missing string // a directory found absent: nothing below it is looked up
	for _, e := range b.idx.entries {
		if !e.skipWorktree || e.isSparseDir() || missing != "" && strings.HasPrefix(e.name, missing) {
			continue
		}
		if b.present(e.name) {
			e.skipWorktree = false
		} else if dir := parentDir(e.name); dir != "" && !b.present(dir) {
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
		c, err := store.commit(head.Hash)
		if err != nil {
			return fmt.Errorf("fatal: bad HEAD commit %s: %w", head.Hash, err)
		}
		headTree = c.tree
	}
	trees := treeCache{store: store, read: map[plumbing.Hash][]treeEntry{}}
	out := make([]*indexEntry, 0, len(b.idx.entries))
	for _, e := range b.idx.entries {
		if !e.isSparseDir() {
			out = append(out, e)
			continue
		}
		dir := strings.TrimSuffix(e.name, "/")
		inHEAD, ok := trees.subtree(headTree, dir)
		if ok && inHEAD == e.hash && !(sparseCheckout && b.present(dir)) {
			b.sparseDirs[dir+"/"] = e.hash
			out = append(out, e)
			continue
		}
		files, err := treeFiles(store, e.hash, e.name)
		if err != nil {
			return fmt.Errorf("fatal: cannot expand the sparse directory %s: %w", e.name, err)
		}
		out = append(out, files...)
	}
	b.idx.entries = out
	return nil
}

// treeCache reads each tree once: the sparse directories of a large
// index share the trees above them.
type treeCache struct {
	store *objectStore
	read  map[plumbing.Hash][]treeEntry
}

func (c treeCache) tree(h plumbing.Hash) ([]treeEntry, error) {
	if entries, ok := c.read[h]; ok {
		return entries, nil
	}
	entries, err := c.store.tree(h)
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
			if te.name == name && filemode.FileMode(te.mode) == filemode.Dir {
				h, found = te.hash, true
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
func treeFiles(store *objectStore, tree plumbing.Hash, prefix string) ([]*indexEntry, error) {
	entries, err := store.tree(tree)
	if err != nil {
		return nil, err
	}
	var out []*indexEntry
	for _, te := range entries {
		if filemode.FileMode(te.mode) == filemode.Dir {
			sub, err := treeFiles(store, te.hash, prefix+te.name+"/")
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		out = append(out, &indexEntry{name: prefix + te.name, hash: te.hash, mode: filemode.FileMode(te.mode), skipWorktree: true})
	}
	return out, nil
}
