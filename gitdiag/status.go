package gitdiag

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"
	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"

	"github.com/session-hooks/session-hooks/gitdiag/format/config"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// FileStatus is one line of `git status --short` (the porcelain v1 layout;
// only a submodule's m and ? letters differ from --porcelain).
type FileStatus struct {
	// Path is relative to the top of the work tree, slash-separated; an
	// untracked directory shown whole ends in "/".
	Path string
	// From is the source of a rename staged as Path (X is R), as git
	// status detects renames.
	From string
	// X is the index against HEAD, Y the work tree against the index, with
	// git's letters: ' ', M, A, D, T, U; "??" for untracked; a submodule's
	// Y is also m (modified content) or ? (untracked content only).
	X, Y byte
}

// Status is the state of the work tree against the index and HEAD.
type Status struct {
	Files []FileStatus // tracked changes by path, then untracked by path
	// diffNames returns the paths `git diff --name-only HEAD` lists,
	// computed on first use: only pre-compact asks, and it may hash files.
	diffNames func() []string
	// Incomplete says what was not looked at when the walk stopped early.
	Incomplete string
	// dirsFromCache counts the directories whose listing the untracked
	// cache stood for (tests check that it is used).
	dirsFromCache int
	// rawNonASCII is core.quotePath=false: names past ASCII unquoted.
	rawNonASCII bool
}

// Status walks the work tree once (it is cached for the other probes). It
// honours .gitignore files, .git/info/exclude, core.excludesFile and
// status.showUntrackedFiles.
func (r *Repo) Status(ctx context.Context) (*Status, error) {
	r.once.Do(func() { r.status, r.statErr = r.computeStatus(ctx) })
	return r.status, r.statErr
}

func (r *Repo) computeStatus(ctx context.Context) (*Status, error) {
	if r.Bare {
		return nil, ErrNoWorkTree
	}
	idx, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	if idx.Unsupported != "" {
		return nil, unsupportedIndex(idx.Unsupported)
	}
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	st := &statusBuilder{repo: r, idx: idx, ctx: ctx, sparseDirs: map[string]plumbing.Hash{},
		fileMode:   r.cfg.GetBool("core.fileMode", true),
		ignoreCase: r.ignoreCase(),
		untracked:  showUntracked(r.cfg)}
	if r.noUntracked {
		st.untracked = "no"
	}
	if err := st.prepareSparse(head); err != nil {
		return nil, err
	}
	if err := st.readHEAD(head); err != nil {
		return nil, err
	}
	st.entries = trackEntries(idx.Entries)
	st.globalIgnore, st.infoExclude = r.baseIgnoreFiles()
	st.ucRoot = r.untrackedCacheRoot(idx, st.untracked, st.ignoreCase, st.globalIgnore, st.infoExclude)
	st.indexEntries()
	if st.submodules {
		if err := st.loadSubmoduleRules(); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	if err := st.walk(); err != nil {
		return nil, err
	}
	if st.err != nil {
		return nil, st.err
	}
	status := st.result()
	status.dirsFromCache = int(st.fromCache.Load())
	if ctx.Err() != nil {
		status.Incomplete = fmt.Sprintf("the work tree walk stopped after %s, at its deadline, with %d of %d tracked files not compared; changes in them and untracked files may be missing",
			formatSeconds(time.Since(start)), st.unseen, st.walkable)
	}
	return status, nil
}

// showUntracked reads status.showUntrackedFiles: "no", "all" or "normal";
// git also takes a boolean there (false is "no", true "normal").
func showUntracked(c *config.Config) string {
	switch v := strings.ToLower(c.Get("status.showUntrackedFiles")); v {
	case "no", "all":
		return v
	case "false", "off", "0":
		return "no"
	}
	return "normal"
}

// statusBuilder holds the working state of one status computation. The
// work tree walk runs in several goroutines; mu guards what they report.
type statusBuilder struct {
	repo       *Repo
	idx        *index.File
	entries    []*trackedEntry // the index's entries with what the walk finds of each
	ctx        context.Context
	fileMode   bool   // core.fileMode: the executable bit counts
	ignoreCase bool   // core.ignoreCase: names match in either case
	untracked  string // status.showUntrackedFiles: "no", "all", or normal
	// walkable are the tracked files the walk compares; unseen those a
	// walk cut by its deadline did not reach.
	walkable, unseen int

	head       map[string]headEntry     // HEAD tree, except subtrees known equal to the index
	sparseDirs map[string]plumbing.Hash // "dir/" → tree id, a sparse index's directories equal to HEAD's
	cleanDirs  map[string]bool          // directories ("a/b/") whose index part equals HEAD
	unmerged   map[string]int           // path → bit set of stages present (1, 2, 4)

	submodules bool            // the index records a submodule
	subRules   *submoduleRules // their settings, when it does

	ucRoot *index.UntrackedDir // git's untracked cache, when usable (untracked.go)

	globalIgnore, infoExclude ignoreFile   // read once: the walk's rules and the cache's check
	base                      *dirHandle   // the top of the work tree, open during the walk
	fromCache                 atomic.Int32 // directories not listed thanks to the cache

	sem      chan struct{} // bounds the walk's extra goroutines
	wg       sync.WaitGroup
	storeMu  sync.Mutex // the object store is read by one goroutine at a time
	attrOnce sync.Once
	attrs    *attributes.Stack // read when the first file is hashed
	mu       sync.Mutex        // guards newFiles and err
	newFiles []string          // untracked paths, directories ending in "/"
	err      error             // the first failure that stops the status, as git stops
	worktree map[string]byte   // tracked path → Y letter, filled after the walk
}

// trackedEntry is an index entry with what the walk found of it: the index
// format knows nothing of the status walk.
type trackedEntry struct {
	*index.Entry
	// Set by the one goroutine that walks the entry's directory, read
	// after the walk.
	seen bool            // found in the work tree
	y    byte            // work tree letter, 0 when unchanged
	sub  *submoduleState // a checked-out submodule's state
	// sizeOnly: y is M because the size differs from the one recorded
	// when the file was added, which a conversion may explain.
	sizeOnly bool
}

// trackEntries wraps the index's entries for one walk, in one allocation.
func trackEntries(entries []*index.Entry) []*trackedEntry {
	all := make([]trackedEntry, len(entries))
	out := make([]*trackedEntry, len(entries))
	for i, e := range entries {
		all[i].Entry = e
		out[i] = &all[i]
	}
	return out
}

type headEntry struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// readHEAD loads the HEAD tree, skipping every subtree the index's
// cache-tree extension records as unchanged: on a clean index this reads no
// tree at all.
func (b *statusBuilder) readHEAD(head Head) error {
	b.head, b.cleanDirs = map[string]headEntry{}, map[string]bool{}
	if head.Unborn {
		return nil
	}
	store, err := b.repo.objects()
	if err != nil {
		return err
	}
	c, err := store.Commit(head.Hash)
	if err != nil {
		return fmt.Errorf("fatal: bad HEAD commit %s: %w", head.Hash, err)
	}
	var walk func(hash plumbing.Hash, prefix string, cache *index.CacheNode, depth int) error
	walk = func(hash plumbing.Hash, prefix string, cache *index.CacheNode, depth int) error {
		if depth > objects.MaxTreeDepth {
			return objects.ErrTooDeep
		}
		if cache != nil && cache.Valid && cache.Hash == hash || prefix != "" && b.sparseDirs[prefix] == hash {
			b.cleanDirs[prefix] = true
			return nil
		}
		entries, err := store.Tree(hash)
		if err != nil {
			return fmt.Errorf("fatal: bad tree %s: %w", hash, err)
		}
		for _, e := range entries {
			p := prefix + e.Name
			if filemode.FileMode(e.Mode) == filemode.Dir {
				if err := walk(e.Hash, p+"/", cache.Child(e.Name), depth+1); err != nil {
					return err
				}
				continue
			}
			b.head[p] = headEntry{mode: filemode.FileMode(e.Mode), hash: e.Hash}
		}
		return nil
	}
	if root, ok := b.idx.CacheRoot(); ok && root == c.Tree {
		b.cleanDirs[""] = true // the usual case: nothing staged
		return nil
	}
	return walk(c.Tree, "", b.idx.CacheTree(), 0)
}

// fail records the first error of the walk's goroutines.
func (b *statusBuilder) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = err
	}
}

func (b *statusBuilder) indexEntries() {
	b.unmerged = map[string]int{}
	b.worktree = map[string]byte{}
	for _, e := range b.entries {
		if e.Stage != 0 {
			b.unmerged[e.Name] |= 1 << (e.Stage - 1)
		}
		b.submodules = b.submodules || e.Mode == filemode.Submodule
	}
}

// tracked returns the stage-0 index entry of path p, or nil. The index is
// sorted by path.
func (b *statusBuilder) tracked(p string) *trackedEntry {
	entries := b.entries
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name >= p })
	for ; i < len(entries) && entries[i].Name == p; i++ {
		if entries[i].Stage == 0 {
			return entries[i]
		}
	}
	return nil
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// result merges HEAD↔index and index↔work tree into porcelain lines.
func (b *statusBuilder) result() *Status {
	byPath := map[string]*FileStatus{}
	get := func(p string) *FileStatus {
		if f := byPath[p]; f != nil {
			return f
		}
		f := &FileStatus{Path: p, X: ' ', Y: ' '}
		byPath[p] = f
		return f
	}
	for _, e := range b.entries {
		if e.Stage != 0 {
			continue
		}
		if x := b.staged(e.Name, e); x != ' ' {
			get(e.Name).X = x
		}
	}
	for p := range b.head {
		if b.tracked(p) == nil && b.unmerged[p] == 0 {
			get(p).X = 'D'
		}
	}
	for p, y := range b.worktree {
		get(p).Y = y
	}
	for p, stages := range b.unmerged {
		f := get(p)
		f.X, f.Y = unmergedLetters(stages)
	}
	var files []FileStatus
	for _, f := range byPath {
		files = append(files, *f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	tracked := slices.Clone(files) // before staged renames fold pairs into one line
	diffNames := sync.OnceValue(func() []string { return b.diffNames(tracked) })
	if rs := renameSettingsFor(b.repo.cfg, true); rs.on {
		files = b.stagedRenames(files, rs.limit)
	}
	sort.Strings(b.newFiles)
	for _, p := range b.newFiles {
		files = append(files, FileStatus{Path: p, X: '?', Y: '?'})
	}
	return &Status{Files: files, diffNames: diffNames, rawNonASCII: !b.repo.quotePath()}
}

// staged compares one index entry with HEAD.
func (b *statusBuilder) staged(p string, e *trackedEntry) byte {
	if e.IntentToAdd || e.IsSparseDir() || b.underCleanDir(p) {
		return ' '
	}
	h, ok := b.head[p]
	switch {
	case !ok:
		return 'A'
	case h.hash == e.Hash && h.mode == e.Mode:
		return ' '
	case fileType(h.mode) != fileType(e.Mode):
		return 'T'
	default:
		return 'M'
	}
}

func (b *statusBuilder) underCleanDir(p string) bool {
	if len(b.cleanDirs) == 0 {
		return false
	}
	if b.cleanDirs[""] {
		return true
	}
	for d := parentDir(p); d != ""; d = parentDir(d) {
		if b.cleanDirs[d+"/"] {
			return true
		}
	}
	return false
}

func fileType(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable || m == filemode.Deprecated {
		return filemode.Regular
	}
	return m
}

// unmergedLetters are git's letters for a conflict, from which of the base
// (1), ours (2) and theirs (4) stages the index holds.
func unmergedLetters(stages int) (byte, byte) {
	switch stages {
	case 1:
		return 'D', 'D'
	case 2:
		return 'A', 'U'
	case 3:
		return 'U', 'D'
	case 4:
		return 'U', 'A'
	case 5:
		return 'D', 'U'
	case 6:
		return 'A', 'A'
	default:
		return 'U', 'U'
	}
}

// differsFromHEAD decides whether `git diff HEAD` would list f: the work
// tree content against the HEAD tree.
func (b *statusBuilder) differsFromHEAD(f *FileStatus) bool {
	unmerged := b.unmerged[f.Path] != 0
	e := b.tracked(f.Path)
	if !unmerged && e != nil && e.sub != nil && e.y != 'T' {
		h, inHEAD := b.head[f.Path]
		if !inHEAD && b.underCleanDir(f.Path) {
			h, inHEAD = headEntry{mode: e.Mode, hash: e.Hash}, true // not read: HEAD has what the index has
		}
		return e.sub.differsFromHEAD(h, inHEAD)
	}
	switch {
	case !unmerged && f.X == ' ' && f.Y == ' ':
		return false
	case !unmerged && f.X == ' ' && f.Y == 'M' && e.sizeOnly:
		// git status calls a file whose size changed modified, but git
		// diff compares content: a file converted when it was added (new
		// line endings) may have the size of another content than its blob.
		return b.worktreeDiffers(f.Path, headEntry{mode: e.Mode, hash: e.Hash}, true)
	case !unmerged && (f.X == ' ' || f.Y == ' '):
		return true // only one side changed, so HEAD and the work tree differ
	case !unmerged && f.X == 'A' && f.Y == 'D':
		return false // git skips an index-only entry missing from disk
	}
	h, inHEAD := b.head[f.Path]
	return b.worktreeDiffers(f.Path, h, inHEAD)
}

// worktreeDiffers compares the file on disk with the blob h (inHEAD false
// when there is none), where the status letters do not settle it.
func (b *statusBuilder) worktreeDiffers(p string, h headEntry, inHEAD bool) bool {
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	fi, err := os.Lstat(abs)
	if err != nil || fi.IsDir() {
		return inHEAD
	}
	if !inHEAD {
		return true
	}
	id, err := b.hashWorktree(p, fi.Mode()&fs.ModeSymlink != 0, fi.Size())
	if err != nil || id != h.hash {
		return true
	}
	exec := fi.Mode()&0o100 != 0
	return b.fileMode && fi.Mode().IsRegular() && exec != (h.mode == filemode.Executable)
}

// unsupportedIndex says which index feature (a version or a required
// extension newer than this decoder) stops the status.
func unsupportedIndex(feature string) error {
	return fmt.Errorf("fatal: the index uses %s, which session-hooks cannot read", feature)
}

// Unmerged reports whether the file has conflicts left to resolve (git
// status's "both modified", "deleted by us"…).
func (f FileStatus) Unmerged() bool {
	switch string([]byte{f.X, f.Y}) {
	case "DD", "AU", "UD", "UA", "DU", "AA", "UU":
		return true
	}
	return false
}
