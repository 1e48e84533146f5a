package gitdiag

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/config"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Rename detection as git's diffcore-rename.c does it for `git status` and
// `git diff` (renames without copies): exact renames first (same blob),
// then pairs of equal base names at least 75% similar, then the best pairs
// at least 50% similar, similarity measured as diffcore-delta.c measures it.

// maxScore and minScore are git's MAX_SCORE and default minimum score.
const (
	maxScore = 60000
	minScore = 30000
)

// renameFile is one side of a possible rename: a deleted source or an
// added destination, with its content read on first use.
type renameFile struct {
	path   string
	mode   filemode.FileMode
	hash   plumbing.Hash
	load   func() ([]byte, error)
	driver func() int // what the diff attribute says: see diffDriverBinary

	read    bool
	content []byte
	spans   []span
	used    bool // a source already renamed
	renamed bool // a destination already paired
}

func (f *renameFile) data() ([]byte, bool) {
	if !f.read {
		f.content, _ = f.load()
		f.read = true
	}
	return f.content, f.content != nil
}

// renameSettings are diff.renames (or status.renames) and the rename limit.
type renameSettings struct {
	on    bool
	limit int
}

// renameSettingsFor reads the settings of `git status` (status set) or
// `git diff`: status.renames and status.renameLimit fall back to diff's.
func renameSettingsFor(c *config.Config, status bool) renameSettings {
	s := renameSettings{on: true, limit: 1000}
	keys := []string{"diff"}
	if status {
		keys = []string{"status", "diff"}
	}
	for _, k := range keys {
		if v, ok := c.Values[k+".renames"]; ok {
			s.on = v.Implicit || strings.HasPrefix(strings.ToLower(v.Text), "cop") || c.GetBool(k+".renames", true)
			break
		}
	}
	for _, k := range keys {
		if v, ok := c.Values[k+".renamelimit"]; ok {
			if n, err := strconv.Atoi(v.Text); err == nil {
				s.limit = n
			}
			break
		}
	}
	return s
}

// isRegularMode is S_ISREG: a file, executable or not (go-git's IsRegular
// leaves executables out).
func isRegularMode(m filemode.FileMode) bool {
	return m&0o170000 == 0o100000
}

// rename pairs a destination with its source.
type rename struct{ src, dst int }

// detectRenames pairs destinations with sources; both lists are sorted by
// path, as git registers them.
func detectRenames(srcs, dsts []*renameFile, limit int) []rename {
	var out []rename
	record := func(s, d int) {
		srcs[s].used, dsts[d].renamed = true, true
		out = append(out, rename{s, d})
	}
	// Exact renames: for each destination, the first unused source with
	// its blob (and mode, unless both are regular files), one with the
	// same base name preferred.
	for d, dst := range dsts {
		best, bestScore := -1, -1
		for s, src := range srcs {
			if src.used || src.hash != dst.hash ||
				(!isRegularMode(src.mode) || !isRegularMode(dst.mode)) && src.mode != dst.mode {
				continue
			}
			score := 1
			if path.Base(src.path) == path.Base(dst.path) {
				score++
			}
			if score > bestScore {
				best, bestScore = s, score
				if score == 2 {
					break
				}
			}
		}
		if best >= 0 {
			record(best, d)
		}
	}
	// Sources used by exact renames are out of the rest.
	remaining := 0
	for _, s := range srcs {
		if !s.used {
			remaining++
		}
	}
	if remaining == 0 {
		return out
	}
	// Equal base names, unique on both sides, similar enough.
	basenames := func(files []*renameFile, skip func(*renameFile) bool) map[string]int {
		m := map[string]int{}
		for i, f := range files {
			if skip(f) {
				continue
			}
			base := path.Base(f.path)
			if _, dup := m[base]; dup {
				m[base] = -1
			} else {
				m[base] = i
			}
		}
		return m
	}
	srcBase := basenames(srcs, func(f *renameFile) bool { return f.used })
	dstBase := basenames(dsts, func(f *renameFile) bool { return f.renamed })
	minBasename := minScore + (maxScore-minScore)/2
	bases := make([]string, 0, len(srcBase))
	for b := range srcBase {
		bases = append(bases, b)
	}
	sort.Strings(bases) // the order only matters for ties git breaks by hash order
	for _, b := range bases {
		s, d := srcBase[b], -1
		if i, ok := dstBase[b]; ok {
			d = i
		}
		if s < 0 || d < 0 {
			continue
		}
		if similarity(srcs[s], dsts[d], minBasename) >= minBasename {
			record(s, d)
		}
	}
	// The rest: the best candidates of each destination, then every pair
	// in order of score.
	var left, right int
	for _, s := range srcs {
		if !s.used {
			left++
		}
	}
	for _, d := range dsts {
		if !d.renamed {
			right++
		}
	}
	if left == 0 || right == 0 || limit > 0 && left*right > limit*limit {
		return out
	}
	const perDst = 4
	var matrix []candidate
	for d, dst := range dsts {
		if dst.renamed {
			continue
		}
		m := [perDst]candidate{{dst: -1}, {dst: -1}, {dst: -1}, {dst: -1}}
		for s, src := range srcs {
			if src.used {
				continue
			}
			c := candidate{score: similarity(src, dst, minScore), src: s, dst: d}
			if path.Base(src.path) == path.Base(dst.path) {
				c.nameScore = 1
			}
			worst := 0
			for i := 1; i < perDst; i++ {
				if compareCandidates(m[i], m[worst]) > 0 {
					worst = i
				}
			}
			if compareCandidates(m[worst], c) > 0 {
				m[worst] = c
			}
		}
		matrix = append(matrix, m[:]...)
	}
	sort.SliceStable(matrix, func(i, j int) bool { return compareCandidates(matrix[i], matrix[j]) < 0 })
	for _, c := range matrix {
		if c.dst < 0 || c.score < minScore {
			break
		}
		if dsts[c.dst].renamed || srcs[c.src].used {
			continue
		}
		record(c.src, c.dst)
	}
	return out
}

// candidate is git's struct diff_score.
type candidate struct {
	src, dst, score, nameScore int
}

// compareCandidates is git's score_compare: unused slots last, then by
// score, then by base name equality, best first.
func compareCandidates(a, b candidate) int {
	switch {
	case a.dst < 0:
		if b.dst >= 0 {
			return 1
		}
		return 0
	case b.dst < 0:
		return -1
	case a.score == b.score:
		return b.nameScore - a.nameScore
	}
	return b.score - a.score
}

// similarity is git's estimate_similarity: the share of the larger file
// that the destination copies from the source, in units of maxScore; 0
// when the sizes alone rule out reaching min.
func similarity(src, dst *renameFile, min int) int {
	if !isRegularMode(src.mode) || !isRegularMode(dst.mode) {
		return 0
	}
	a, ok1 := src.data()
	b, ok2 := dst.data()
	if !ok1 || !ok2 {
		return 0
	}
	maxSize, baseSize := len(a), len(b)
	if maxSize < baseSize {
		maxSize, baseSize = baseSize, maxSize
	}
	if int64(maxSize)*int64(maxScore-min) < int64(maxSize-baseSize)*maxScore {
		return 0
	}
	if len(b) == 0 {
		return 0
	}
	copied := countCopied(src.spansOf(), dst.spansOf())
	return int(int64(copied) * maxScore / int64(maxSize))
}

// span is one hash value of diffcore-delta.c with the bytes it covers.
type span struct {
	hash uint32
	cnt  int
}

func (f *renameFile) spansOf() []span {
	if f.spans == nil {
		f.spans = hashChars(f.content, !isBinaryAs(f.driver(), f.content))
	}
	return f.spans
}

// hashBase is diffcore-delta.c's HASHBASE.
const hashBase = 107927

// hashChars is diffcore-delta.c's hash_chars: the content cut after each
// LF or 64 bytes, each piece hashed, the byte counts summed per hash value
// and sorted by it. In text, a CR before an LF is skipped.
func hashChars(b []byte, text bool) []span {
	counts := map[uint32]int{}
	var accum1, accum2 uint32
	n := 0
	for i := 0; i < len(b); i++ {
		c := uint32(b[i])
		old1 := accum1
		if text && c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		accum1 = accum1<<7 ^ accum2>>25
		accum2 = accum2<<7 ^ old1>>25
		accum1 += c
		if n++; n < 64 && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%hashBase] += n
		n, accum1, accum2 = 0, 0, 0
	}
	if n > 0 {
		counts[(accum1+accum2*0x61)%hashBase] += n
	}
	spans := make([]span, 0, len(counts))
	for h, c := range counts {
		spans = append(spans, span{h, c})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].hash < spans[j].hash })
	if spans == nil {
		spans = []span{}
	}
	return spans
}

// countCopied is diffcore_count_changes' src_copied: for each hash value,
// the bytes both sides have.
func countCopied(src, dst []span) int {
	copied, j := 0, 0
	for _, s := range src {
		for j < len(dst) && dst[j].hash < s.hash {
			j++
		}
		if j < len(dst) && dst[j].hash == s.hash {
			copied += min(s.cnt, dst[j].cnt)
			j++
		}
	}
	return copied
}

// stagedRenames pairs the paths deleted from the index with those added
// to it, as git status does, and shows each pair as one R line under the
// new name.
func (b *statusBuilder) stagedRenames(files []FileStatus, limit int) []FileStatus {
	var srcs, dsts []*renameFile
	var srcAt, dstAt []int
	for i, f := range files {
		if b.unmerged[f.Path] != 0 {
			continue
		}
		switch f.X {
		case 'D':
			h := b.head[f.Path]
			srcs, srcAt = append(srcs, b.renameFile(f.Path, h.mode, h.hash)), append(srcAt, i)
		case 'A':
			e := b.tracked(f.Path)
			dsts, dstAt = append(dsts, b.renameFile(f.Path, e.Mode, e.Hash)), append(dstAt, i)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 {
		return files
	}
	drop := map[int]bool{}
	for _, r := range detectRenames(srcs, dsts, limit) {
		f := &files[dstAt[r.dst]]
		f.X, f.From = 'R', srcs[r.src].path
		drop[srcAt[r.src]] = true
	}
	return without(files, drop)
}

// without removes the elements at the indexes in drop (the sources of
// renames, shown under their new names), in place.
func without[T any](xs []T, drop map[int]bool) []T {
	out := xs[:0]
	for i, x := range xs {
		if !drop[i] {
			out = append(out, x)
		}
	}
	return out
}

// diffNames lists what `git diff --name-only HEAD` lists: the paths whose
// work tree differs from HEAD, a rename (a path gone from the work tree
// paired with a new one) by its new name only.
func (b *statusBuilder) diffNames(files []FileStatus) []string {
	rs := renameSettingsFor(b.repo.cfg, false)
	var srcs []*renameFile
	var added []FileStatus
	var differ []FileStatus
	for _, f := range files {
		if b.differsFromHEAD(&f) {
			differ = append(differ, f)
		}
	}
	for _, f := range differ {
		if !rs.on || b.unmerged[f.Path] != 0 {
			continue
		}
		h, inHEAD := b.head[f.Path]
		if e := b.tracked(f.Path); !inHEAD && e != nil && b.underCleanDir(f.Path) {
			h, inHEAD = headEntry{mode: e.Mode, hash: e.Hash}, true
		}
		switch {
		case inHEAD && (f.X == 'D' || f.Y == 'D'):
			srcs = append(srcs, b.renameFile(f.Path, h.mode, h.hash))
		case !inHEAD && f.X == 'A' && f.Y != 'D':
			added = append(added, f)
		}
	}
	hidden := map[string]bool{}
	if len(srcs) > 0 && len(added) > 0 {
		// Only now are the added files read: most runs have no deletion.
		dsts := make([]*renameFile, len(added))
		for i, f := range added {
			dsts[i] = b.worktreeRenameFile(f)
		}
		for _, r := range detectRenames(srcs, dsts, rs.limit) {
			hidden[srcs[r.src].path] = true
		}
	}
	var out []string
	for _, f := range differ {
		if !hidden[f.Path] {
			out = append(out, f.Path)
		}
	}
	return out
}

// renameFile is a blob of HEAD or the index as a rename candidate.
func (b *statusBuilder) renameFile(p string, mode filemode.FileMode, id plumbing.Hash) *renameFile {
	return &renameFile{path: p, mode: mode, hash: id,
		load: func() ([]byte, error) {
			b.storeMu.Lock()
			defer b.storeMu.Unlock()
			store, err := b.repo.objects()
			if err != nil {
				return nil, err
			}
			return readBlob(store, id, MaxDiffBlob)
		},
		driver: func() int { return b.repo.diffDriverBinary(b.attributes(), p) },
	}
}

// worktreeRenameFile is a file as git diff HEAD sees it: the index's blob
// when its stat data is clean, else the work tree's content, converted.
func (b *statusBuilder) worktreeRenameFile(f FileStatus) *renameFile {
	e := b.tracked(f.Path)
	rf := b.renameFile(f.Path, e.Mode, e.Hash)
	if f.Y == ' ' || e.Mode == filemode.Submodule {
		return rf
	}
	abs := filepath.Join(b.repo.Root, filepath.FromSlash(f.Path))
	fi, err := os.Lstat(abs)
	var content []byte
	switch {
	case err == nil && fi.Mode().IsRegular():
		rules := b.cleanRulesFor(f.Path)
		if content, err = readForHashing(abs, rules); err == nil {
			content = rules.clean(content, func() bool { return b.indexHasCRLF(f.Path) })
		}
		rf.mode = filemode.Regular
		if fi.Mode()&0o100 != 0 && b.fileMode {
			rf.mode = filemode.Executable
		}
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		var target string
		target, err = os.Readlink(abs)
		content, rf.mode = []byte(target), filemode.Symlink
	default:
		// A FIFO or socket (never opened: it would block) has no content.
		rf.read, rf.hash = true, plumbing.ZeroHash
		return rf
	}
	if err != nil {
		return rf
	}
	rf.hash, rf.read, rf.content = blobID(content), true, content
	return rf
}
