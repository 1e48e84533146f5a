package gitdiag

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// FileStatus is one line of `git status --porcelain` (v1).
type FileStatus struct {
	// Path is relative to the top of the work tree, slash-separated; an
	// untracked directory shown whole ends in "/".
	Path string
	// X is the index against HEAD, Y the work tree against the index, with
	// git's letters: ' ', M, A, D, T, U; "??" for untracked.
	X, Y byte

	// differsFromHEAD says whether `git diff HEAD` lists the path.
	differsFromHEAD bool
}

// Status is the state of the work tree against the index and HEAD.
type Status struct {
	Files []FileStatus // tracked changes by path, then untracked by path
	// Incomplete says what was not looked at when the walk stopped early.
	Incomplete string
}

// Status walks the work tree once (it is cached for the other probes). It
// honours .gitignore files, .git/info/exclude, core.excludesFile and
// status.showUntrackedFiles.
func (r *Repo) Status(ctx context.Context) (*Status, error) {
	r.once.Do(func() { r.status, r.statErr = r.computeStatus(ctx) })
	return r.status, r.statErr
}

func (r *Repo) computeStatus(ctx context.Context) (*Status, error) {
	idx, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	st := &statusBuilder{repo: r, idx: idx, ctx: ctx,
		fileMode:  r.cfg.get("core.fileMode") != "false",
		untracked: strings.ToLower(r.cfg.get("status.showUntrackedFiles"))}
	if err := st.readHEAD(head); err != nil {
		return nil, err
	}
	st.indexEntries()
	start := time.Now()
	if err := st.walk(); err != nil {
		return nil, err
	}
	status := st.result()
	if ctx.Err() != nil {
		status.Incomplete = fmt.Sprintf("the work tree walk stopped after %s, at its deadline; untracked and modified files may be missing", formatSeconds(time.Since(start)))
	}
	return status, nil
}

func (r *Repo) readIndex() (*index.Index, error) {
	idx := &index.Index{Version: 2}
	f, err := os.Open(filepath.Join(r.GitDir, "index"))
	if errors.Is(err, fs.ErrNotExist) {
		return idx, nil // a fresh repository has no index yet
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := index.NewDecoder(f).Decode(idx); err != nil {
		return nil, fmt.Errorf("fatal: index file is corrupt or unsupported: %w", err)
	}
	idx.ModTime = fi.ModTime()
	return idx, nil
}

// statusBuilder holds the working state of one status computation.
type statusBuilder struct {
	repo      *Repo
	idx       *index.Index
	ctx       context.Context
	fileMode  bool   // core.fileMode: the executable bit counts
	untracked string // status.showUntrackedFiles: "no", "all", or normal

	head        map[string]headEntry // HEAD tree, except subtrees known equal to the index
	cleanDirs   map[string]bool      // directories ("a/b/") whose index part equals HEAD
	tracked     map[string]*index.Entry
	unmerged    map[string]int // path → bit set of stages present (1, 2, 4)
	trackedDirs map[string]bool
	seen        map[string]bool // tracked paths found in the work tree
	worktree    map[string]byte // tracked path → Y letter
	newFiles    []string        // untracked paths, directories ending in "/"
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
	g, err := b.repo.objects()
	if err != nil {
		return err
	}
	c, err := g.CommitObject(head.Hash)
	if err != nil {
		return fmt.Errorf("fatal: bad HEAD commit %s: %w", head.Hash, err)
	}
	var walk func(hash plumbing.Hash, prefix string, cache *cacheNode) error
	walk = func(hash plumbing.Hash, prefix string, cache *cacheNode) error {
		if cache != nil && cache.valid && cache.hash == hash {
			b.cleanDirs[prefix] = true
			return nil
		}
		t, err := g.TreeObject(hash)
		if err != nil {
			return fmt.Errorf("fatal: bad tree %s: %w", hash, err)
		}
		for _, e := range t.Entries {
			p := prefix + e.Name
			if e.Mode == filemode.Dir {
				if err := walk(e.Hash, p+"/", cache.child(e.Name)); err != nil {
					return err
				}
				continue
			}
			b.head[p] = headEntry{mode: e.Mode, hash: e.Hash}
		}
		return nil
	}
	return walk(c.TreeHash, "", newCacheTree(b.idx.Cache))
}

// cacheNode is the index's cache-tree extension as a tree.
type cacheNode struct {
	hash     plumbing.Hash
	valid    bool
	children map[string]*cacheNode
}

func (n *cacheNode) child(name string) *cacheNode {
	if n == nil {
		return nil
	}
	return n.children[name]
}

// newCacheTree rebuilds the tree from the extension's pre-order list.
func newCacheTree(t *index.Tree) *cacheNode {
	if t == nil || len(t.Entries) == 0 {
		return nil
	}
	i := 0
	var build func() *cacheNode
	build = func() *cacheNode {
		e := t.Entries[i]
		i++
		n := &cacheNode{hash: e.Hash, valid: e.Entries >= 0, children: map[string]*cacheNode{}}
		for k := 0; k < e.Trees && i < len(t.Entries); k++ {
			name := t.Entries[i].Path
			n.children[name] = build()
		}
		return n
	}
	return build()
}

func (b *statusBuilder) indexEntries() {
	b.tracked = make(map[string]*index.Entry, len(b.idx.Entries))
	b.unmerged = map[string]int{}
	b.trackedDirs = map[string]bool{}
	b.seen = make(map[string]bool, len(b.idx.Entries))
	b.worktree = map[string]byte{}
	for _, e := range b.idx.Entries {
		// Stage 0 is a merged entry; go-git's index.Merged constant is 1,
		// the base stage of a conflict, so compare with 0.
		if e.Stage != 0 {
			b.unmerged[e.Name] |= 1 << (e.Stage - 1)
		} else {
			b.tracked[e.Name] = e
		}
		for d := parentDir(e.Name); d != "" && !b.trackedDirs[d]; d = parentDir(d) {
			b.trackedDirs[d] = true
		}
	}
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// walk visits the work tree from the top, comparing tracked files and
// collecting untracked ones.
func (b *statusBuilder) walk() error {
	rules := b.repo.baseIgnore()
	if err := b.walkDir("", rules, false); err != nil {
		return err
	}
	if b.ctx.Err() != nil {
		return nil // unseen files were not looked at, not deleted
	}
	for p := range b.tracked {
		if !b.seen[p] {
			b.worktree[p] = 'D'
		}
	}
	return nil
}

func (b *statusBuilder) walkDir(rel string, rules ignoreRules, excluded bool) error {
	if b.ctx.Err() != nil {
		return nil
	}
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return err
		}
		return nil // unreadable directory: git skips it too
	}
	domain := splitPath(rel)
	if !excluded {
		rules = rules.withFile(filepath.Join(abs, ".gitignore"), domain)
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		p := joinPath(rel, name)
		switch {
		case b.tracked[p] != nil:
			b.checkTracked(p, e)
		case e.IsDir() && b.trackedDirs[p]:
			dirExcluded := excluded || rules.ignored(append(domain, name), true)
			if err := b.walkDir(p, rules, dirExcluded); err != nil {
				return err
			}
		case e.IsDir():
			if !excluded && b.untracked != "no" && !rules.ignored(append(domain, name), true) {
				b.untrackedDir(p, rules)
			}
		case e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0:
			if !excluded && b.untracked != "no" && b.unmerged[p] == 0 && !rules.ignored(append(domain, name), false) {
				b.newFiles = append(b.newFiles, p)
			}
		}
	}
	return nil
}

// untrackedDir records an untracked directory as git shows it: "dir/" when
// it holds at least one file that is not ignored, each file with
// status.showUntrackedFiles=all, nothing when it is empty or all ignored.
func (b *statusBuilder) untrackedDir(p string, rules ignoreRules) {
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		b.newFiles = append(b.newFiles, p+"/") // a nested repository is shown, never entered
		return
	}
	if b.untracked == "all" {
		b.listUntracked(p, rules)
		return
	}
	if b.hasUntracked(p, rules) {
		b.newFiles = append(b.newFiles, p+"/")
	}
}

func (b *statusBuilder) hasUntracked(p string, rules ignoreRules) bool {
	if b.ctx.Err() != nil {
		return false
	}
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	entries, err := os.ReadDir(abs)
	if err != nil {
		return false
	}
	domain := splitPath(p)
	rules = rules.withFile(filepath.Join(abs, ".gitignore"), domain)
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		switch {
		case e.IsDir():
			if rules.ignored(append(domain, name), true) {
				continue
			}
			if _, err := os.Lstat(filepath.Join(abs, name, ".git")); err == nil {
				return true
			}
			if b.hasUntracked(joinPath(p, name), rules) {
				return true
			}
		case e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0:
			if !rules.ignored(append(domain, name), false) {
				return true
			}
		}
	}
	return false
}

func (b *statusBuilder) listUntracked(p string, rules ignoreRules) {
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	entries, err := os.ReadDir(abs)
	if err != nil || b.ctx.Err() != nil {
		return
	}
	domain := splitPath(p)
	rules = rules.withFile(filepath.Join(abs, ".gitignore"), domain)
	for _, e := range entries {
		name, child := e.Name(), joinPath(p, e.Name())
		switch {
		case name == ".git":
		case e.IsDir():
			if !rules.ignored(append(domain, name), true) {
				b.untrackedDir(child, rules)
			}
		case e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0:
			if !rules.ignored(append(domain, name), false) {
				b.newFiles = append(b.newFiles, child)
			}
		}
	}
}

// checkTracked compares one tracked path in the work tree with its index
// entry, as git's ie_match_stat does: stat data first, content only when
// the stat data cannot settle it.
func (b *statusBuilder) checkTracked(p string, d fs.DirEntry) {
	e := b.tracked[p]
	b.seen[p] = true
	if e.Mode == filemode.Submodule {
		if d.IsDir() {
			b.checkSubmodule(p, e)
		} else {
			b.worktree[p] = 'T'
		}
		return
	}
	if d.IsDir() {
		b.seen[p] = false // a directory where a file was: deleted; git lists nothing inside
		return
	}
	fi, err := d.Info()
	if err != nil {
		b.seen[p] = false
		return
	}
	if y := b.compare(p, e, fi); y != ' ' {
		b.worktree[p] = y
	}
}

func (b *statusBuilder) compare(p string, e *index.Entry, fi fs.FileInfo) byte {
	isLink := fi.Mode()&fs.ModeSymlink != 0
	if !isLink && !fi.Mode().IsRegular() {
		return 'T'
	}
	if isLink != (e.Mode == filemode.Symlink) {
		return 'T'
	}
	if e.IntentToAdd {
		return 'A'
	}
	if !isLink && b.fileMode && (fi.Mode()&0o100 != 0) != (e.Mode == filemode.Executable) {
		return 'M'
	}
	size := uint32(fi.Size())
	if size != e.Size && e.Size != 0 {
		return 'M'
	}
	if b.statClean(e, fi) {
		return ' '
	}
	h, err := hashWorktree(filepath.Join(b.repo.Root, filepath.FromSlash(p)), fi)
	if err != nil || h != e.Hash {
		return 'M'
	}
	return ' '
}

// statClean reports whether the index's stat data proves the file is
// unchanged: all fields equal, and the entry not racily clean (written in
// the same instant as the index, when a later same-size edit is invisible).
func (b *statusBuilder) statClean(e *index.Entry, fi fs.FileInfo) bool {
	if uint32(fi.Size()) != e.Size || !fi.ModTime().Equal(e.ModifiedAt) {
		return false
	}
	sd := statOf(fi)
	if !sd.known || !sd.ctime.Equal(e.CreatedAt) || sd.ino != e.Inode || sd.uid != e.UID || sd.gid != e.GID {
		return false
	}
	return b.idx.ModTime.After(e.ModifiedAt)
}

// hashWorktree computes the blob id of a file or symlink as git stores it.
func hashWorktree(path string, fi fs.FileInfo) (plumbing.Hash, error) {
	h := sha1.New()
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		fmt.Fprintf(h, "blob %d\x00%s", len(target), target)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		defer f.Close()
		fmt.Fprintf(h, "blob %d\x00", fi.Size())
		if _, err := io.Copy(h, f); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id, nil
}

// checkSubmodule compares a submodule's checked-out commit with the one
// recorded in the index. Changes inside the submodule are not looked at.
func (b *statusBuilder) checkSubmodule(p string, e *index.Entry) {
	root := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	gitDir, err := findGitDir(root)
	if err != nil {
		return // not checked out: git shows nothing either
	}
	sub := &Repo{Root: root, GitDir: gitDir, CommonDir: gitDir}
	if h, err := sub.Head(); err == nil && h.Hash != e.Hash {
		b.worktree[p] = 'M'
	}
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
	for p, e := range b.tracked {
		if x := b.staged(p, e); x != ' ' {
			get(p).X = x
		}
	}
	for p := range b.head {
		if b.tracked[p] == nil && b.unmerged[p] == 0 {
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
		f.differsFromHEAD = b.differsFromHEAD(f)
		files = append(files, *f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	sort.Strings(b.newFiles)
	for _, p := range b.newFiles {
		files = append(files, FileStatus{Path: p, X: '?', Y: '?'})
	}
	return &Status{Files: files}
}

// staged compares one index entry with HEAD.
func (b *statusBuilder) staged(p string, e *index.Entry) byte {
	if e.IntentToAdd || b.underCleanDir(p) {
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
	switch {
	case !unmerged && f.X == ' ' && f.Y == ' ':
		return false
	case !unmerged && (f.X == ' ' || f.Y == ' '):
		return true // only one side changed, so HEAD and the work tree differ
	case !unmerged && f.X == 'A' && f.Y == 'D':
		return false // git skips an index-only entry missing from disk
	}
	return b.worktreeDiffersFromHEAD(f.Path)
}

// worktreeDiffersFromHEAD compares the file on disk with HEAD's blob,
// for paths changed on both sides, where neither letter settles it.
func (b *statusBuilder) worktreeDiffersFromHEAD(p string) bool {
	h, inHEAD := b.head[p]
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	fi, err := os.Lstat(abs)
	if err != nil || fi.IsDir() {
		return inHEAD
	}
	if !inHEAD {
		return true
	}
	id, err := hashWorktree(abs, fi)
	if err != nil || id != h.hash {
		return true
	}
	exec := fi.Mode()&0o100 != 0
	return b.fileMode && fi.Mode().IsRegular() && exec != (h.mode == filemode.Executable)
}

// Short formats s as `git status --short` run from the directory prefix
// ("" or "sub/dir/"): paths relative to it, quoted as git quotes them.
func (s *Status) Short(prefix string) []string {
	out := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		out = append(out, string([]byte{f.X, f.Y})+" "+quotePath(relativePath(f.Path, prefix), true))
	}
	return out
}

// NamesAgainstHEAD formats the paths `git diff --name-only HEAD` lists.
func (s *Status) NamesAgainstHEAD() []string {
	var out []string
	for _, f := range s.Files {
		if f.differsFromHEAD {
			out = append(out, quotePath(f.Path, false))
		}
	}
	return out
}

// relativePath is git's relative_path: p as seen from the directory prefix.
func relativePath(p, prefix string) string {
	if prefix == "" {
		return p
	}
	if strings.HasPrefix(p, prefix) && len(p) > len(prefix) {
		return p[len(prefix):]
	}
	dirs := splitPath(strings.TrimSuffix(prefix, "/"))
	parts := splitPath(strings.TrimSuffix(p, "/"))
	common := 0
	for common < len(dirs) && common < len(parts)-1 && dirs[common] == parts[common] {
		common++
	}
	rel := strings.Repeat("../", len(dirs)-common) + strings.Join(parts[common:], "/")
	if strings.HasSuffix(p, "/") {
		rel += "/"
	}
	if rel == "" || rel == "/" {
		return "./"
	}
	return rel
}

// quotePath is git's quote_c_style with core.quotePath=true: names with
// control characters, quotes, backslashes or non-ASCII bytes are written as
// C strings. `git status --short` also quotes names containing spaces.
func quotePath(p string, quoteSpace bool) string {
	needs := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || (quoteSpace && c == ' ') {
			needs = true
			break
		}
	}
	if !needs {
		return p
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case '\a':
			sb.WriteString(`\a`)
		case '\b':
			sb.WriteString(`\b`)
		case '\t':
			sb.WriteString(`\t`)
		case '\n':
			sb.WriteString(`\n`)
		case '\v':
			sb.WriteString(`\v`)
		case '\f':
			sb.WriteString(`\f`)
		case '\r':
			sb.WriteString(`\r`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&sb, `\%03o`, c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}
