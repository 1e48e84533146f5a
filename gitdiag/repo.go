// Package gitdiag gathers the repository facts a coding agent needs at a
// session boundary (branch, recent commits, working-tree status, changed
// files, diff stat against the upstream) in-process, without the git binary,
// and formats them exactly as the git command each one stands for would.
//
// It never writes to the repository: no index refresh, no index.lock.
package gitdiag

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"

	"github.com/session-hooks/session-hooks/gitdiag/format/config"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrNotRepository is returned by Open outside a git work tree. Its text is
// git's own, so logs read as they did with the git CLI.
var ErrNotRepository = errors.New("fatal: not a git repository (or any of the parent directories): .git")

// Repo is an opened work tree. Its methods may be called from one goroutine
// at a time. It is a snapshot: HEAD, packed-refs and the status walk are
// read once and shared by every probe; open another Repo to see changes.
type Repo struct {
	// Root is the top of the work tree; Prefix is the directory the repo was
	// opened from, relative to Root ("" or ending in "/"), as git's prefix.
	Root, Prefix string
	// Bare is set when there is no work tree (Root is empty).
	Bare bool
	// GitDir holds HEAD and the index; CommonDir holds objects, refs, config
	// (the same directory except in linked worktrees).
	GitDir, CommonDir string

	cfg    *config.Config
	store  *objects.Store
	packed map[string]packedRef // packed-refs, read on first use
	// HEAD, read on first use
	head          Head
	headErr       error
	headRead      bool
	status        *Status
	statErr       error
	diffAttrs     *attributes.Stack // for the diff stat
	once          sync.Once
	forceParallel bool // tests: walk a small tree in parallel too
	noUntracked   bool // git status -uno: a submodule whose untracked files do not count
	// unapplied names the conversions (filters, encodings) of hashed
	// files that gitdiag cannot apply.
	unappliedMu sync.Mutex
	unapplied   map[string]bool
}

// Open finds the repository containing dir, as git does: dir itself or the
// nearest parent with a .git directory or .git file.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("cannot use %s: %w", abs, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("cannot use %s: not a directory", abs)
	}
	for root := abs; ; root = filepath.Dir(root) {
		gitDir, err := findGitDir(root)
		if err == nil {
			return newRepo(root, abs, gitDir)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if IsGitDir(root) {
			// A bare repository, or the inside of a .git directory: history
			// but no work tree.
			r, err := newRepo(root, abs, root)
			if r != nil {
				r.Root, r.Prefix, r.Bare = "", "", true
			}
			return r, err
		}
		if root == filepath.Dir(root) {
			return nil, ErrNotRepository
		}
	}
}

// ErrNoWorkTree is git's answer to a status asked of a bare repository.
var ErrNoWorkTree = errors.New("fatal: this operation must be run in a work tree")

// IsGitDir says whether dir is itself a git directory (HEAD, objects/ and
// refs/), as a bare repository or a .git directory is.
func IsGitDir(dir string) bool {
	for _, p := range []string{"HEAD", "objects", "refs"} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || (p == "HEAD") == fi.IsDir() {
			return false
		}
	}
	return true
}

// findGitDir returns root/.git, or the directory a .git file points to.
func findGitDir(root string) (string, error) {
	dotgit := filepath.Join(root, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(dotgit, "HEAD")); err != nil {
			return "", fmt.Errorf("fatal: %s has no HEAD: %w", dotgit, err)
		}
		return dotgit, nil
	}
	b, err := readFile(dotgit)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(b))
	if !strings.HasPrefix(line, "gitdir: ") {
		return "", fmt.Errorf("fatal: invalid gitfile format: %s", dotgit)
	}
	target := strings.TrimPrefix(line, "gitdir: ")
	if !filepath.IsAbs(target) {
		target = filepath.Join(root, target)
	}
	return filepath.Clean(target), nil
}

func newRepo(root, dir, gitDir string) (*Repo, error) {
	r := &Repo{Root: root, GitDir: gitDir, CommonDir: gitDir}
	if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
		r.Prefix = filepath.ToSlash(rel) + "/"
	}
	if b, err := readFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		r.CommonDir = filepath.Clean(c)
	}
	cfg, err := config.Load(r.CommonDir, gitDir, readFile)
	if err != nil {
		return nil, err
	}
	r.cfg = cfg
	// go-git v5 cannot read these either, so there is no slower path to
	// fall back to: say so rather than misread them.
	if strings.EqualFold(cfg.Get("extensions.objectFormat"), "sha256") {
		return nil, unsupported("SHA-256 object names")
	}
	if strings.EqualFold(cfg.Get("extensions.refStorage"), "reftable") {
		return nil, unsupported("the reftable ref storage")
	}
	return r, nil
}

func unsupported(feature string) error {
	return fmt.Errorf("fatal: this repository uses %s, which session-hooks cannot read", feature)
}

// Engine describes how the facts were read: "fast" (in-process, every
// probe compared with git's output in the tests), with what it could not
// apply to the files it had to hash.
func (r *Repo) Engine() string {
	r.unappliedMu.Lock()
	skipped := slices.Sorted(maps.Keys(r.unapplied))
	r.unappliedMu.Unlock()
	if r.Bare {
		skipped = append(skipped, "no work tree")
	}
	if len(skipped) == 0 {
		return "fast"
	}
	return "fast (not applied: " + strings.Join(skipped, ", ") + "; the files concerned may show as modified)"
}

// notApplied records a conversion gitdiag could not apply to a file.
func (r *Repo) notApplied(what string) {
	r.unappliedMu.Lock()
	defer r.unappliedMu.Unlock()
	if r.unapplied == nil {
		r.unapplied = map[string]bool{}
	}
	r.unapplied[what] = true
}

// objects opens the object store lazily: only the probes that read
// commits or trees pay for it.
func (r *Repo) objects() (*objects.Store, error) {
	if r.store != nil {
		return r.store, nil
	}
	s, err := objects.OpenStore(filepath.Join(r.CommonDir, "objects"))
	if err != nil {
		return nil, fmt.Errorf("fatal: cannot read the object database: %w", err)
	}
	s.Shallow = readShallow(filepath.Join(r.CommonDir, "shallow"))
	r.store = s
	return s, nil
}

// Close releases the files the repository holds open.
func (r *Repo) Close() {
	if r.store != nil {
		r.store.Close()
		r.store = nil
	}
}

// readShallow reads the commit ids of a shallow clone's boundary.
func readShallow(path string) map[plumbing.Hash]bool {
	b, err := readFile(path)
	if err != nil {
		return nil
	}
	set := map[plumbing.Hash]bool{}
	for _, line := range strings.Fields(string(b)) {
		if plumbing.IsHash(line) {
			set[plumbing.NewHash(line)] = true
		}
	}
	return set
}
