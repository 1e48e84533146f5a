package gitdiag

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"
)

// This file reads git's untracked cache (core.untrackedCache, the index's
// UNTR extension) the way git's dir.c trusts it, to skip listing the
// directories that have not changed since git last listed them. It is only
// read, never written: git refreshes it on its next status.
//
// A directory's cached names stand for a listing when, as git checks:
//   - the cache was written here (its ident names this work tree and
//     system), for this untracked mode, with .gitignore as the per-directory
//     file and the same info/exclude and core.excludesFile;
//   - the directory's stat data equals the recorded one and is older than
//     the index (otherwise an entry may have changed within the same tick);
//   - its .gitignore, and those of every directory above it, hash to the
//     recorded ids.
// Equal stat data means no name was added to or removed from the directory,
// so its names are the index's children plus the untracked ones recorded.
// Untracked directories are always read (what is inside them may have
// changed without their parent noticing), and so are tracked files: only
// the directory listing is saved, which is the bulk of the walk on a tree
// of many small directories.

// untrackedCacheRoot returns the cache's top directory when this status may
// use it, else nil.
func (r *Repo) untrackedCacheRoot(idx *index.File, mode string, ignoreCase bool, global, info ignoreFile) *index.UntrackedDir {
	if mode == "no" || ignoreCase || !r.cfg.GetBool("core.untrackedCache", true) {
		return nil
	}
	uc, err := idx.UntrackedCache()
	if err != nil || uc == nil || uc.Root == nil || uc.ExcludePerDir != ".gitignore" {
		return nil
	}
	want := uint32(index.DirShowOtherDirectories | index.DirHideEmptyDirectories)
	if mode == "all" {
		want = 0
	}
	if uc.DirFlags != want || !r.untrackedCacheIdentMatches(uc.Idents) {
		return nil
	}
	if !sameIgnoreFile(global.content, global.present, uc.ExcludesFile) || !sameIgnoreFile(info.content, info.present, uc.InfoExclude) {
		return nil
	}
	return uc.Root
}

// untrackedCacheIdentMatches is git's ident_in_untracked: "Location <work
// tree>, system <uname -s>".
func (r *Repo) untrackedCacheIdentMatches(idents []string) bool {
	system, ok := map[string]string{"linux": "Linux", "darwin": "Darwin", "freebsd": "FreeBSD",
		"netbsd": "NetBSD", "openbsd": "OpenBSD"}[runtime.GOOS]
	if !ok {
		return false
	}
	roots := []string{r.Root}
	if real, err := filepath.EvalSymlinks(r.Root); err == nil && real != r.Root {
		roots = append(roots, real)
	}
	for _, root := range roots {
		if slices.Contains(idents, "Location "+filepath.ToSlash(root)+", system "+system) {
			return true
		}
	}
	return false
}

// sameIgnoreFile says whether an ignore file's content (present says the
// file exists) has the id the cache recorded for it: zero for no file, the
// empty blob for an empty one, else the index's id of a tracked clean file
// or, as git hashes what it read, the id of the content with a newline
// added (dir.c, add_patterns). Either way the patterns are the same.
func sameIgnoreFile(content []byte, present bool, recorded plumbing.Hash) bool {
	if !present {
		return recorded.IsZero()
	}
	if recorded == blobID(content) {
		return true
	}
	return len(content) > 0 && recorded == blobID(append(content[:len(content):len(content)], '\n'))
}

// cachedChild is the cache's entry for the subdirectory name of node. git
// keeps a directory's subdirectories sorted by name (lookup_untracked
// bisects them); a cache that is not finds nothing, and the directory is
// listed.
func cachedChild(node *index.UntrackedDir, name string) *index.UntrackedDir {
	if node == nil {
		return nil
	}
	i, found := slices.BinarySearchFunc(node.Dirs, name, func(d *index.UntrackedDir, name string) int {
		return strings.Compare(d.Name, name)
	})
	if !found {
		return nil
	}
	return node.Dirs[i]
}

// cachedEntries returns the listing of directory d, which the index knows
// as td, from the cache's node for it, when the directory is unchanged. st
// is the directory's lstat data when the caller has it.
func (b *statusBuilder) cachedEntries(d *dirHandle, td *trackedDir, node *index.UntrackedDir, st *fileStat) ([]dirEntry, bool) {
	if node == nil || !node.Valid || node.CheckOnly {
		return nil, false
	}
	if st == nil {
		s, err := d.stat()
		if err != nil {
			return nil, false
		}
		st = &s
	}
	if !sameDirStat(node.Stat, *st) || racyDir(node.Stat, b.idx.ModTime) {
		return nil, false
	}
	entries := make([]dirEntry, 0, len(td.children)+len(node.Untracked)+len(node.Dirs))
	for _, c := range td.children {
		// Stat'ed once by the walk, for its kind and its data: a tracked
		// directory may have been a link or a file when git listed this one.
		entries = append(entries, dirEntry{name: c.name, kind: kindUnknown})
	}
	for _, name := range node.Untracked {
		if dir, ok := strings.CutSuffix(name, "/"); ok {
			entries = append(entries, dirEntry{name: dir, kind: kindDir})
		} else {
			entries = append(entries, dirEntry{name: name, kind: kindUnknown})
		}
	}
	// Directories git read only to see whether they hold anything (an
	// untracked directory of ignored files, say) may have gained a file.
	for _, sub := range node.Dirs {
		entries = append(entries, dirEntry{name: sub.Name, kind: kindDir})
	}
	// One entry a name (git records the tracked directories it entered
	// too), the one to stat where there are two.
	slices.SortStableFunc(entries, func(x, y dirEntry) int { return strings.Compare(x.name, y.name) })
	entries = slices.CompactFunc(entries, func(x, y dirEntry) bool { return x.name == y.name })
	b.fromCache.Add(1)
	return entries, true
}

// sameDirStat is git's match_stat_data with core.checkStat=default, plus the
// device: any difference means the directory may have changed.
func sameDirStat(sd index.Stat, st fileStat) bool {
	return st.kind == kindDir && st.full &&
		int64(sd.MtimeSec) == st.mtimeSec&0xffffffff && int64(sd.MtimeNsec) == st.mtimeNsec &&
		int64(sd.CtimeSec) == st.ctimeSec&0xffffffff && int64(sd.CtimeNsec) == st.ctimeNsec &&
		uint64(sd.Ino) == st.ino&0xffffffff && sd.UID == st.uid && sd.GID == st.gid &&
		int64(sd.Size) == st.size&0xffffffff
}

// racyDir is git's is_racy_stat: a directory changed in the same tick the
// index was written may have changed after git listed it.
func racyDir(sd index.Stat, indexTime time.Time) bool {
	if indexTime.IsZero() {
		return true
	}
	sec, nsec := uint32(indexTime.Unix()), uint32(indexTime.Nanosecond())
	return sec < sd.MtimeSec || (sec == sd.MtimeSec && nsec <= sd.MtimeNsec)
}
