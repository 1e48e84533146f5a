package gitdiag

import (
	"crypto/sha1"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"

	"github.com/session-hooks/session-hooks/gitdiag/format/ignore"

	"github.com/session-hooks/session-hooks/gitdiag/format/lfs"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// walk visits the work tree from the top, comparing tracked files and
// collecting untracked ones. Directories are read in parallel: the walk is
// mostly system calls (readdir and lstat), which overlap well. Each tracked
// entry is looked at by the one goroutine that lists its directory, which
// records the result on the entry itself.
func (b *statusBuilder) walk() error {
	tree := buildTrackedTree(b.entries)
	n := walkers(tree.count)
	if b.repo.forceParallel {
		n = walkers(parallelWalkMin)
	}
	b.sem = make(chan struct{}, n)
	// base stays open for the whole walk: directories the untracked cache
	// vouches for are read through it, never opened.
	base, err := openDir(b.repo.Root)
	if err != nil {
		return err
	}
	defer base.close()
	b.base = base
	top := under(base, "")
	entries, cached := b.cachedEntries(top, tree, b.ucRoot, nil)
	if !cached {
		if entries, err = base.list(); err != nil {
			return err
		}
	}
	b.walkEntries(tree, top, entries, baseIgnore(b.globalIgnore, b.infoExclude, b.ignoreCase), false, b.ucRoot, cached)
	b.wg.Wait()
	// A walk cut by its deadline reports what it found: a file it did not
	// look at is not deleted, and a change it saw is still a change.
	cut := b.ctx.Err() != nil
	if b.ignoreCase && !cut {
		b.checkUnseenByPath()
	}
	for _, e := range b.entries {
		switch {
		case e.Stage != 0:
		case e.SkipWorktree || e.AssumeValid:
			// absent on purpose (sparse checkout) or declared unchanged
		case !e.seen && cut:
			b.walkable++
			b.unseen++
		case !e.seen:
			b.walkable++
			b.worktree[e.Name] = 'D'
		default:
			b.walkable++
			if e.y != 0 {
				b.worktree[e.Name] = e.y
			}
		}
	}
	return nil
}

// parallelWalkMin is the number of tracked directories from which the walk
// is parallel (Repo.forceParallel makes it parallel for any tree, so that
// the tests check both walks).
const parallelWalkMin = 64

// walkers is how many more directories are read at once, for a tree of
// dirs tracked directories. More than the cores: a goroutine blocked in a
// file system call hands its processor to another. On the 30k-file
// benchmark (2 cores, warm cache) end took 1.02x the time of git status
// with 1 walker per core, 0.86x with 2, 0.83x with 4, and no less with
// more. A small tree is walked by one goroutine: starting the threads
// (about 0.1 ms each) costs more than its few directories take.
func walkers(dirs int) int {
	if dirs < parallelWalkMin {
		return 0
	}
	return 4 * runtime.GOMAXPROCS(0)
}

// listAt opens and lists a subdirectory of d.
func listAt(d *dirHandle, name string) (*dirHandle, []dirEntry, error) {
	sub, err := d.openAt(name)
	if err != nil {
		return nil, nil, err
	}
	entries, err := sub.list()
	if err != nil {
		sub.close()
		return nil, nil, err
	}
	return sub, entries, nil
}

func hasEntry(entries []dirEntry, name string) bool {
	for _, e := range entries {
		if e.name == name {
			return true
		}
	}
	return false
}

// withDirRules adds a directory's .gitignore when its listing shows one,
// sparing a failed open in every directory that has none.
func withDirRules(rules ignore.Rules, d *dirHandle, dir string, entries []dirEntry, fold bool) ignore.Rules {
	rules, _, _ = withDirRulesRead(rules, d, dir, hasEntry(entries, ".gitignore"), fold)
	return rules
}

// withDirRulesRead is withDirRules told whether the directory has a
// .gitignore, also returning what it read of it, for the untracked cache.
func withDirRulesRead(rules ignore.Rules, d *dirHandle, dir string, has bool, fold bool) (ignore.Rules, []byte, bool) {
	if !has {
		return rules, nil, false
	}
	content, err := d.readFile(".gitignore")
	if err != nil {
		return rules, nil, false
	}
	if len(content) == 0 {
		return rules, content, true
	}
	return rules.WithPatterns(content, dir, fold), content, true
}

// kindOf resolves an entry's type when the directory listing did not give it.
func kindOf(d *dirHandle, e dirEntry) entryKind {
	kind, _, _ := kindAndStat(d, e)
	return kind
}

// kindAndStat is kindOf, with the stat data when it had to lstat the entry
// (known says so).
func kindAndStat(d *dirHandle, e dirEntry) (kind entryKind, st fileStat, known bool) {
	if e.kind != kindUnknown {
		return e.kind, fileStat{}, false
	}
	st, err := d.lstat(e.name)
	if err != nil {
		return kindOther, fileStat{}, false
	}
	return st.kind, st, true
}

// descend walks a tracked subdirectory of d, in a new goroutine when one
// is free. It is opened here, while d is still open, unless the untracked
// cache's node for it may stand for its listing; st is its lstat data when
// the caller has it.
func (b *statusBuilder) descend(d *dirHandle, td *trackedDir, name string, rules ignore.Rules, excluded bool, node *index.UntrackedDir, st *fileStat) {
	if node = cachedChild(node, name); excluded {
		node = nil // git reads no ignore file there, so records none
	}
	var sub *dirHandle
	if node != nil && node.Valid && !node.CheckOnly {
		sub = under(b.base, td.path)
	} else {
		var err error
		if sub, err = d.openAt(name); err != nil {
			return // an unreadable directory is skipped, as git does
		}
	}
	walk := func() {
		entries, cached := b.cachedEntries(sub, td, node, st)
		if !cached {
			var err error
			if entries, err = sub.list(); err != nil {
				sub.close()
				return
			}
		}
		b.walkEntries(td, sub, entries, rules, excluded, node, cached)
	}
	select {
	case b.sem <- struct{}{}:
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			defer func() { <-b.sem }()
			walk()
		}()
	default:
		walk()
	}
}

// walkEntries handles one listed tracked directory and closes it. The
// listing is sorted and merged with the index's children of the directory.
// node is the untracked cache's entry for the directory (nil when the cache
// is not used below here); cached says the entries come from it.
func (b *statusBuilder) walkEntries(td *trackedDir, d *dirHandle, entries []dirEntry, rules ignore.Rules, excluded bool, node *index.UntrackedDir, cached bool) {
	defer d.close()
	if b.ctx.Err() != nil {
		return
	}
	if excluded {
		node = nil
	} else {
		has := hasEntry(entries, ".gitignore")
		if cached {
			// The directory is unchanged: its .gitignore is there if it was.
			has = !node.ExcludeHash.IsZero()
		}
		var content []byte
		rules, content, has = withDirRulesRead(rules, d, td.path, has, b.ignoreCase)
		if node != nil && !sameIgnoreFile(content, has, node.ExcludeHash) {
			// A changed .gitignore voids the cache here and below (git's
			// invalidate_gitignore): list the directory after all.
			node = nil
			if cached {
				b.fromCache.Add(-1)
				var err error
				if entries, err = d.list(); err != nil {
					return
				}
				cached = false
			}
		}
	}
	slices.SortFunc(entries, func(x, y dirEntry) int { return strings.Compare(x.name, y.name) })
	var newFiles []string
	j := 0
	for _, e := range entries {
		if e.name == ".git" {
			continue
		}
		var c trackedChild
		c, j = child(td.children, j, e.name)
		kind, st, known := kindAndStat(d, e)
		if b.ignoreCase && c.entry == nil && c.dir == nil && !c.unmerged {
			if fc, ok := td.foldChild(e.name); ok {
				// Tracked under another case: not untracked, and compared
				// by its own name after the walk, as git lstat()s it.
				if kind == kindDir && fc.dir != nil && !excluded {
					newFiles = append(newFiles, b.foldedDir(d, e.name, joinPath(td.path, e.name), fc.dir, rules)...)
				}
				continue
			}
		}
		switch {
		case c.entry != nil:
			b.checkTracked(d, c.entry, e.name, kind, st, known)
		case kind == kindDir && c.dir != nil:
			var dirStat *fileStat // a copy: descend keeps it, st must stay on the stack
			if known {
				s := st
				dirStat = &s
			}
			b.descend(d, c.dir, e.name, rules, excluded || rules.Ignored(td.path, e.name, true), node, dirStat)
		case kind == kindDir:
			if !excluded && b.untracked != "no" && !rules.Ignored(td.path, e.name, true) {
				newFiles = append(newFiles, b.untrackedDir(d, e.name, joinPath(td.path, e.name), rules)...)
			}
		case kind == kindFile || kind == kindSymlink:
			// git lists files and links; FIFOs, sockets and devices are
			// passed over (and never opened).
			if !excluded && b.untracked != "no" && !c.unmerged && !rules.Ignored(td.path, e.name, false) {
				newFiles = append(newFiles, joinPath(td.path, e.name))
			}
		}
	}
	if len(newFiles) > 0 {
		b.mu.Lock()
		b.newFiles = append(b.newFiles, newFiles...)
		b.mu.Unlock()
	}
}

// foldedDir looks for untracked files in a tracked directory listed under
// another case (core.ignoreCase): git enters it as the index's directory
// and matches its names against the index in either case. Tracked files
// in it are compared after the walk (checkUnseenByPath).
func (b *statusBuilder) foldedDir(parent *dirHandle, name, p string, td *trackedDir, rules ignore.Rules) []string {
	if b.ctx.Err() != nil {
		return nil
	}
	d, entries, err := listAt(parent, name)
	if err != nil {
		return nil
	}
	defer d.close()
	rules = withDirRules(rules, d, p, entries, true)
	var out []string
	for _, e := range entries {
		if e.name == ".git" {
			continue
		}
		kind, child := kindOf(d, e), joinPath(p, e.name)
		if c, ok := td.foldChild(e.name); ok {
			if kind == kindDir && c.dir != nil {
				out = append(out, b.foldedDir(d, e.name, child, c.dir, rules)...)
			}
			continue
		}
		switch {
		case b.untracked == "no" || rules.Ignored(p, e.name, kind == kindDir):
		case kind == kindDir:
			out = append(out, b.untrackedDir(d, e.name, child, rules)...)
		case kind == kindFile || kind == kindSymlink:
			out = append(out, child)
		}
	}
	return out
}

// checkUnseenByPath compares the tracked entries the walk did not meet
// under their own names by those names, as git lstat()s each index path:
// under core.ignoreCase, a case-insensitive file system finds a file
// renamed in case only, a case-sensitive one does not (it is deleted).
func (b *statusBuilder) checkUnseenByPath() {
	for _, e := range b.entries {
		if e.seen || e.Stage != 0 || e.SkipWorktree || e.AssumeValid || e.IsSparseDir() {
			continue
		}
		dir, name := parentDir(e.Name), e.Name[strings.LastIndexByte(e.Name, '/')+1:]
		d, err := openDir(filepath.Join(b.repo.Root, filepath.FromSlash(dir)))
		if err != nil {
			continue
		}
		if st, err := d.lstat(name); err == nil {
			b.checkTracked(d, e, name, st.kind, st, true)
		}
		d.close()
	}
}

// untrackedDir returns an untracked directory p (named name in parent) as
// git shows it: "dir/" when it holds at least one file that is not ignored
// (or is a nested repository, which is never entered), each file with
// status.showUntrackedFiles=all, nothing when it is empty or all ignored.
func (b *statusBuilder) untrackedDir(parent *dirHandle, name, p string, rules ignore.Rules) []string {
	if b.ctx.Err() != nil {
		return nil
	}
	d, entries, err := listAt(parent, name)
	if err != nil {
		return nil
	}
	defer d.close()
	if hasEntry(entries, ".git") && b.repo.nestedRepo(p) {
		return []string{p + "/"}
	}
	rules = withDirRules(rules, d, p, entries, b.ignoreCase)
	var out []string
	for _, e := range entries {
		if e.name == ".git" {
			continue // never a path git shows, whatever it is
		}
		child := joinPath(p, e.name)
		switch kindOf(d, e) {
		case kindDir:
			if rules.Ignored(p, e.name, true) {
				continue
			}
			if found := b.untrackedDir(d, e.name, child, rules); len(found) > 0 {
				if b.untracked != "all" {
					return []string{p + "/"}
				}
				out = append(out, found...)
			}
		case kindFile, kindSymlink:
			if rules.Ignored(p, e.name, false) {
				continue
			}
			if b.untracked != "all" {
				return []string{p + "/"}
			}
			out = append(out, child)
		}
	}
	return out
}

// checkTracked compares one tracked path in the work tree with its index
// entry, as git's ie_match_stat does: stat data first, content only when
// the stat data cannot settle it.
func (b *statusBuilder) checkTracked(d *dirHandle, e *trackedEntry, name string, kind entryKind, st fileStat, known bool) {
	if kind == kindDir && e.Mode != filemode.Submodule {
		return // a directory where a file was: deleted; git lists nothing inside
	}
	switch {
	case e.SkipWorktree || e.AssumeValid:
		e.seen = true // git does not look at these either
		return
	case e.Mode == filemode.Submodule:
		e.seen = true
		if kind != kindDir {
			e.y = 'T'
		} else if err := b.checkSubmodule(e); err != nil {
			b.fail(err)
		}
		return
	}
	if !known {
		var err error
		if st, err = d.lstat(name); err != nil {
			return // vanished since the listing: deleted
		}
	}
	e.seen = true
	if y := b.compare(e, st); y != ' ' {
		e.y = y
	}
}

func (b *statusBuilder) compare(e *trackedEntry, st fileStat) byte {
	isLink := st.kind == kindSymlink
	if !isLink && st.kind != kindFile {
		return 'M' // a FIFO, socket or device has no git mode to change to: git says M
	}
	if isLink != (e.Mode == filemode.Symlink) {
		return 'T'
	}
	if e.IntentToAdd {
		return 'A'
	}
	if !isLink && b.fileMode && st.exec != (e.Mode == filemode.Executable) {
		return 'M'
	}
	if uint32(st.size) != e.Size && e.Size != 0 {
		e.sizeOnly = true
		return 'M'
	}
	if b.statClean(e, st) {
		return ' '
	}
	h, err := b.hashWorktree(e.Name, isLink, st.size)
	if err != nil || h != e.Hash {
		return 'M'
	}
	return ' '
}

// statClean reports whether the index's stat data proves the file is
// unchanged: all fields equal (to the nanosecond), and the entry not racily
// clean (written in the same instant as the index, when a later same-size
// edit would be invisible).
func (b *statusBuilder) statClean(e *trackedEntry, st fileStat) bool {
	if !st.full || uint32(st.size) != e.Size ||
		uint32(st.mtimeSec) != e.MtimeSec || uint32(st.mtimeNsec) != e.MtimeNsec ||
		uint32(st.ctimeSec) != e.CtimeSec || uint32(st.ctimeNsec) != e.CtimeNsec ||
		uint32(st.ino) != e.Ino || st.uid != e.UID || st.gid != e.GID {
		return false
	}
	im := b.idx.ModTime
	return uint32(im.Unix()) > e.MtimeSec || uint32(im.Unix()) == e.MtimeSec && uint32(im.Nanosecond()) > e.MtimeNsec
}

// hashWorktree computes the blob id git would give the file or symlink p
// (from the top of the work tree), the file's content converted as its
// attributes and core.autocrlf ask.
func (b *statusBuilder) hashWorktree(p string, isLink bool, size int64) (plumbing.Hash, error) {
	path := filepath.Join(b.repo.Root, filepath.FromSlash(p))
	if isLink {
		target, err := os.Readlink(path)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return blobID([]byte(target)), nil
	}
	rules := b.cleanRulesFor(p)
	if rules.filter != "" {
		b.repo.notApplied("the " + rules.filter + " filter")
	}
	if rules.encoding != "" {
		b.repo.notApplied("working-tree-encoding")
	}
	if rules.plain() {
		return hashFile(path, size)
	}
	content, err := readForHashing(path, rules)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return blobID(rules.clean(content, func() bool { return b.indexHasCRLF(p) })), nil
}

// readForHashing reads a file whole, or as the pointer git-lfs would make
// of it (read in a stream, however large the file).
func readForHashing(path string, rules cleanRules) ([]byte, error) {
	if !rules.lfs {
		return readFile(path)
	}
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return lfs.Clean(f)
}

// hashFile hashes a file as it is, without holding it in memory.
func hashFile(path string, size int64) (plumbing.Hash, error) {
	f, err := openFile(path)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer f.Close()
	h := sha1.New()
	// The size is the one just stat'ed; a file growing meanwhile hashes
	// to something else, which reads as modified, as it is.
	fmt.Fprintf(h, "blob %d\x00", size)
	if _, err := io.Copy(h, io.LimitReader(f, size)); err != nil {
		return plumbing.ZeroHash, err
	}
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id, nil
}

// blobID is the id of a blob with this content.
func blobID(content []byte) plumbing.Hash {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	var id plumbing.Hash
	copy(id[:], h.Sum(nil))
	return id
}

// indexHasCRLF is convert.c's has_crlf_in_index: whether the index's copy
// of p is text with CRLF line endings.
func (b *statusBuilder) indexHasCRLF(p string) bool {
	content, ok := b.indexBlob(p)
	return ok && hasCRLFText(content)
}

// indexBlob reads the index's copy of p as git's read_blob_data_from_index
// does: the stage-0 entry, or in a conflict "ours" (stage 2).
func (b *statusBuilder) indexBlob(p string) ([]byte, bool) {
	e := b.tracked(p)
	if e == nil {
		entries := b.entries
		i := sort.Search(len(entries), func(i int) bool { return entries[i].Name >= p })
		for ; i < len(entries) && entries[i].Name == p; i++ {
			if entries[i].Stage == 2 {
				e = entries[i]
			}
		}
	}
	if e == nil {
		return nil, false
	}
	b.storeMu.Lock()
	defer b.storeMu.Unlock()
	store, err := b.repo.objects()
	if err != nil {
		return nil, false
	}
	content, err := store.ReadAs(e.Hash, objects.TypeBlob)
	return content, err == nil
}

// attributes returns the attributes of the work tree, read on first use.
func (b *statusBuilder) attributes() *attributes.Stack {
	b.attrOnce.Do(func() { b.attrs = b.repo.newAttributes(b.indexBlob) })
	return b.attrs
}
