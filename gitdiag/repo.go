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
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"

	"github.com/session-hooks/session-hooks/gitdiag/format/commitgraph"
	"github.com/session-hooks/session-hooks/gitdiag/format/config"
	"github.com/session-hooks/session-hooks/gitdiag/format/index"

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
	indexFile         string // GIT_INDEX_FILE, else GitDir/index

	cfg         *config.Config
	store       *objects.Store
	graph       *commitgraph.Graph // the commit-graph, once looked for
	graphLooked bool
	packed      map[string]packedRef // packed-refs, read on first use
	// packedFile is the version of packed-refs that packed was read from
	// (nil: there was none).
	packedFile fs.FileInfo
	// index is the index as the last read decoded it, kept so that a
	// question after the status (TracksUnder) does not decode it again.
	index   *index.File
	indexMu sync.Mutex
	// The probes of one run may go two at a time (the status walk beside
	// the others): what they read lazily and share is guarded.
	headMu, refsMu, storeMu sync.Mutex
	// HEAD, read on first use
	head          Head
	headErr       error
	headRead      bool
	status        *Status
	statErr       error
	diffAttrs     *attributes.Stack // for the diff stat
	once          sync.Once
	forceParallel bool // tests: walk a small tree in parallel too
	// CacheDir, when set, is where DiffStat keeps its last result for this
	// repository, to answer again without reading a blob (diffstatcache.go).
	CacheDir      string
	noUntracked   bool // git status -uno: a submodule whose untracked files do not count
	worktreesOnce sync.Once
	worktrees     []Worktree // Worktrees, read on first use
	// unapplied names the conversions (filters, encodings) of hashed
	// files that gitdiag cannot apply.
	unappliedMu sync.Mutex
	unapplied   map[string]bool
	// outside names what the repository's metadata names out of it, which
	// git would follow and gitdiag does not (within).
	outside   map[string]bool
	rootsOnce sync.Once
	roots     []string
}

// Open finds the repository containing dir, as git does: dir itself or the
// nearest parent with a .git directory or .git file, not climbing into the
// directories GIT_CEILING_DIRECTORIES lists; or the one GIT_DIR names.
// GIT_WORK_TREE and core.worktree move the work tree and GIT_INDEX_FILE
// the index, as they do for git. The environment is the process's, as
// git's is: Claude Code passes its own to the hooks.
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
	var r *Repo
	if gd := os.Getenv("GIT_DIR"); gd != "" {
		r, err = openGitDir(abs, gd)
	} else {
		r, err = discover(abs)
	}
	if err != nil {
		return nil, err
	}
	if err := r.placeWorkTree(abs); err != nil {
		return nil, err
	}
	if ix := os.Getenv("GIT_INDEX_FILE"); ix != "" {
		// git has moved to the top of the work tree when it reads it
		top := r.Root
		if r.Bare {
			top = r.GitDir
		}
		r.indexFile = absFrom(top, ix)
	}
	return r, nil
}

// discover walks up from dir as git's setup_git_directory does.
func discover(dir string) (*Repo, error) {
	ceiling := ceilingOf(dir)
	for root := dir; ; root = filepath.Dir(root) {
		gitDir, err := findGitDir(root)
		if err == nil {
			return newRepo(root, dir, gitDir)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if IsGitDir(root) {
			// A bare repository, or the inside of a .git directory: history
			// but no work tree.
			r, err := newRepo(root, dir, root)
			if r != nil {
				r.Root, r.Prefix, r.Bare = "", "", true
			}
			return r, err
		}
		if root == filepath.Dir(root) || len(filepath.Dir(root)) <= ceiling {
			return nil, ErrNotRepository
		}
	}
}

// ceilingOf returns the length of the longest GIT_CEILING_DIRECTORIES
// entry that is a proper parent of dir, or -1: discovery never looks at
// that directory or above it. Relative entries are ignored, and entries
// are compared with symbolic links resolved, as git does.
func ceilingOf(dir string) int {
	list := os.Getenv("GIT_CEILING_DIRECTORIES")
	if list == "" {
		return -1
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	best := -1
	for _, c := range filepath.SplitList(list) {
		if !filepath.IsAbs(c) {
			continue
		}
		if real, err := filepath.EvalSymlinks(c); err == nil {
			c = real
		}
		c = filepath.Clean(c)
		under := strings.TrimSuffix(c, string(filepath.Separator)) + string(filepath.Separator)
		if strings.HasPrefix(dir, under) && len(c) > best {
			best = len(c)
		}
	}
	return best
}

// openGitDir opens the repository GIT_DIR names, relative to dir; with no
// other say, git takes dir as the top of the work tree.
func openGitDir(dir, gitDir string) (*Repo, error) {
	gd := absFrom(dir, gitDir)
	if fi, err := os.Stat(gd); err == nil && !fi.IsDir() {
		if target, err := readGitFile(gd, filepath.Dir(gd)); err == nil {
			gd = target
		}
	}
	if !IsGitDir(gd) {
		return nil, fmt.Errorf("fatal: not a git repository: '%s'", gitDir)
	}
	r, err := newRepo(dir, dir, gd)
	if err != nil {
		return nil, err
	}
	r.Prefix = ""
	if r.cfg.GetBool("core.bare", false) && os.Getenv("GIT_WORK_TREE") == "" && r.cfg.Get("core.worktree") == "" {
		r.Root, r.Bare = "", true
	}
	return r, nil
}

// placeWorkTree applies GIT_WORK_TREE, else core.worktree (relative to the
// git directory), as the top of the work tree; the prefix is where dir
// lies inside it ("" outside it, where git runs from the top).
func (r *Repo) placeWorkTree(dir string) error {
	wt := os.Getenv("GIT_WORK_TREE")
	base := dir
	if wt == "" {
		wt, base = r.cfg.Get("core.worktree"), r.GitDir
	}
	if wt == "" {
		return nil
	}
	root := absFrom(base, wt)
	if base == r.GitDir && r.confined("core.worktree", root) == "" {
		return nil // the repository's config names a work tree out of it
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return fmt.Errorf("fatal: cannot chdir to '%s': No such file or directory", wt)
	}
	r.Root, r.Bare, r.Prefix = root, false, ""
	if rel, err := filepath.Rel(root, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		r.Prefix = filepath.ToSlash(rel) + "/"
	}
	return nil
}

// absFrom makes p absolute against base.
func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
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
	return readGitFile(dotgit, root)
}

// readGitFile reads a "gitdir: <path>" file; a relative path is relative
// to the file's directory.
func readGitFile(path, dir string) (string, error) {
	b, err := readFile(path)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(b))
	if !strings.HasPrefix(line, "gitdir: ") {
		return "", fmt.Errorf("fatal: invalid gitfile format: %s", path)
	}
	target := absFrom(dir, strings.TrimPrefix(line, "gitdir: "))
	// As git's read_gitfile: what the file names must be a git directory
	// (a worktree whose gitdir was pruned names nothing).
	if !isGitDirectory(target) {
		return "", fmt.Errorf("fatal: not a git repository: %s", target)
	}
	return target, nil
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
	cfg, err := config.Load(r.CommonDir, gitDir, readFile, r.within)
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

// within says whether path lies in the repository: its git directory, its
// common directory or its work tree, links resolved. A path the
// repository's own metadata names elsewhere (an include of ~/.netrc, an
// excludes file in another project) is not read: a repository that
// arrives whole, .git and all, names nothing outside itself that we read.
func (r *Repo) within(path string) bool {
	r.rootsOnce.Do(func() {
		for _, root := range []string{r.GitDir, r.CommonDir, r.Root} {
			if root == "" {
				continue
			}
			if real, err := filepath.EvalSymlinks(root); err == nil {
				root = real
			}
			r.roots = append(r.roots, filepath.Clean(root))
		}
	})
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		// Not there (git reads nothing either) or not reachable: judge
		// the name, its directory's links resolved.
		real = filepath.Clean(path)
		if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			real = filepath.Join(dir, filepath.Base(path))
		}
	}
	for _, root := range r.roots {
		if rel, err := filepath.Rel(root, real); err == nil && filepath.IsLocal(rel) || real == root {
			return true
		}
	}
	return false
}

// confined is path, the value of the file key, or "" when the
// repository's own config named it outside the repository (noted).
func (r *Repo) confined(key, path string) string {
	if path == "" || !r.cfg.Values[strings.ToLower(key)].Repo || r.within(path) {
		return path
	}
	r.notFollowed(key + " " + r.cfg.Get(key))
	return ""
}

// notFollowed records a path the repository's metadata names outside the
// repository, which git would read and gitdiag did not.
func (r *Repo) notFollowed(what string) {
	r.unappliedMu.Lock()
	defer r.unappliedMu.Unlock()
	if r.outside == nil {
		r.outside = map[string]bool{}
	}
	r.outside[what] = true
}

// partialClone is the promisor remote of a partial clone, "" otherwise.
func (r *Repo) partialClone() string {
	store, err := r.objects()
	if err != nil {
		return ""
	}
	return store.Promisor
}

// quotePath is core.quotePath: names past ASCII quoted (git's default).
func (r *Repo) quotePath() bool { return r.cfg.GetBool("core.quotePath", true) }

func unsupported(feature string) error {
	return fmt.Errorf("fatal: this repository uses %s, which session-hooks cannot read", feature)
}

// Engine describes how the facts were read: "fast" (in-process, every
// probe compared with git's output in the tests), with what it could not
// apply to the files it had to hash.
func (r *Repo) Engine() string {
	r.unappliedMu.Lock()
	skipped := slices.Sorted(maps.Keys(r.unapplied))
	outside := slices.Sorted(maps.Keys(r.outside))
	r.unappliedMu.Unlock()
	if r.Bare {
		skipped = append(skipped, "no work tree")
	}
	engine := "fast"
	if len(skipped) > 0 {
		engine += " (not applied: " + strings.Join(skipped, ", ") + "; the files concerned may show as modified)"
	}
	if r.cfg != nil {
		outside = append(outside, r.cfg.NotFollowed...)
	}
	if len(outside) > 0 {
		engine += " (not followed, outside the repository: " + strings.Join(outside, ", ") + ")"
	}
	return engine
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
	r.storeMu.Lock()
	defer r.storeMu.Unlock()
	if r.store != nil {
		return r.store, nil
	}
	s, err := objects.OpenStore(filepath.Join(r.CommonDir, "objects"))
	if err != nil {
		return nil, fmt.Errorf("fatal: cannot read the object database: %w", err)
	}
	s.Shallow = readShallow(filepath.Join(r.CommonDir, "shallow"))
	s.Grafts = readGrafts(filepath.Join(r.CommonDir, "info", "grafts"))
	s.Replace = r.replacements()
	s.Promisor = r.promisor()
	r.store = s
	return s, nil
}

// promisor is the remote a partial clone fetches the objects it lacks from
// (extensions.partialClone, or a remote.<name>.promisor set true), "" for
// a whole clone.
func (r *Repo) promisor() string {
	if name := r.cfg.Get("extensions.partialClone"); name != "" {
		return name
	}
	var names []string
	for key := range r.cfg.Values {
		name, ok := strings.CutPrefix(key, "remote.")
		if name, ok2 := strings.CutSuffix(name, ".promisor"); ok && ok2 && r.cfg.GetBool(key, false) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// commitGraph is the commit-graph where git would read it: core.commitGraph
// on (its default), and no replaced commit, graft or shallow boundary,
// which the graph cannot show (git's commit_graph_compatible). A graph it
// cannot read is none: the walk then reads the commits, as git would.
func (r *Repo) commitGraph(store *objects.Store) *commitgraph.Graph {
	r.storeMu.Lock()
	defer r.storeMu.Unlock()
	if r.graphLooked {
		return r.graph
	}
	r.graphLooked = true
	if !r.cfg.GetBool("core.commitGraph", true) || len(store.Replace) > 0 || len(store.Grafts) > 0 || store.Shallow != nil {
		return nil
	}
	version, err := strconv.Atoi(r.cfg.Get("commitGraph.generationVersion"))
	if err != nil {
		version = 2
	}
	r.graph, _ = commitgraph.Open(filepath.Join(r.CommonDir, "objects"), version >= 2)
	return r.graph
}

// Close releases the files the repository holds open.
func (r *Repo) Close() {
	r.graph.Close()
	r.graph, r.graphLooked = nil, false
	if r.store != nil {
		r.store.Close()
		r.store = nil
	}
}

// readGrafts reads info/grafts: each line a commit and the parents git
// gives it instead of its own.
func readGrafts(path string) map[plumbing.Hash][]plumbing.Hash {
	b, err := readFile(path)
	if err != nil {
		return nil
	}
	grafts := map[plumbing.Hash][]plumbing.Hash{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || !plumbing.IsHash(f[0]) {
			continue
		}
		parents := []plumbing.Hash{}
		for _, p := range f[1:] {
			if plumbing.IsHash(p) {
				parents = append(parents, plumbing.NewHash(p))
			}
		}
		grafts[plumbing.NewHash(f[0])] = parents
	}
	return grafts
}

// replaceBase is where replace refs live, unless the environment says
// not to use them; "" when they are off.
func (r *Repo) replaceBase() string {
	if os.Getenv("GIT_NO_REPLACE_OBJECTS") != "" || !r.cfg.GetBool("core.useReplaceRefs", true) {
		return ""
	}
	if b := os.Getenv("GIT_REPLACE_REF_BASE"); b != "" {
		return strings.TrimSuffix(b, "/") + "/"
	}
	return "refs/replace/"
}

// replacements maps each replaced object to its replacement, as git
// reads refs/replace/<id> unless replacing is off. It runs whenever the
// object store opens (every log probe), so it reads the replace refs
// only: the loose ones' directory (most repositories have none: one failed
// open) and packed-refs, which the run reads anyway.
func (r *Repo) replacements() map[plumbing.Hash]plumbing.Hash {
	base := r.replaceBase()
	if base == "" {
		return nil
	}
	out := map[plumbing.Hash]plumbing.Hash{}
	if packed, err := r.packedRefs(); err == nil {
		for name, p := range packed {
			if id, ok := strings.CutPrefix(name, base); ok && plumbing.IsHash(id) {
				out[plumbing.NewHash(id)] = p.hash
			}
		}
	}
	dir := filepath.Join(r.CommonDir, filepath.FromSlash(base))
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !plumbing.IsHash(e.Name()) {
			continue
		}
		if b, err := readFile(filepath.Join(dir, e.Name())); err == nil && plumbing.IsHash(strings.TrimSpace(string(b))) {
			out[plumbing.NewHash(e.Name())] = plumbing.NewHash(strings.TrimSpace(string(b)))
		}
	}
	return out
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
