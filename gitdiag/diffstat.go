package gitdiag

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
	"github.com/session-hooks/session-hooks/gitdiag/internal/xdiff"

	"github.com/session-hooks/session-hooks/gitdiag/format/quote"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Upstream is what the branch is compared with: its configured upstream,
// else origin/HEAD.
type Upstream struct {
	Name string // as git prints it: origin/main
	Hash plumbing.Hash
}

// Upstream finds the comparison base, or says why there is none.
func (r *Repo) Upstream(head Head) (Upstream, error) {
	if head.Branch != "" {
		remote := r.cfg.GetSub("branch", head.Branch, "remote")
		merge := r.cfg.GetSub("branch", head.Branch, "merge")
		if full, ok := r.trackingRef(remote, merge); ok {
			if h, err := r.resolveRef(full); err == nil {
				return Upstream{Name: shortRef(full), Hash: h}, nil
			}
		}
	}
	b, err := readFileString(r.CommonDir, "refs/remotes/origin/HEAD")
	target, ok := strings.CutPrefix(strings.TrimSpace(b), "ref: ")
	if err == nil && ok {
		if h, err := r.resolveRef(target); err == nil {
			return Upstream{Name: strings.TrimPrefix(target, "refs/remotes/"), Hash: h}, nil
		}
	}
	if head.Branch != "" {
		return Upstream{}, fmt.Errorf("branch %s has no upstream and origin/HEAD is not set", head.Branch)
	}
	return Upstream{}, fmt.Errorf("HEAD is detached and origin/HEAD is not set")
}

// trackingRef is the ref git compares a branch with, as branch_get_upstream
// finds it: the merge ref itself for the remote ".", else the merge ref
// mapped by the first of the remote's fetch refspecs that maps it (git's
// remote_find_tracking). A merge ref no refspec maps (refs/pull/7/head
// after gh pr checkout) is no upstream for git.
func (r *Repo) trackingRef(remote, merge string) (string, bool) {
	if remote == "" || merge == "" {
		return "", false
	}
	if remote == "." {
		return merge, true
	}
	for _, spec := range r.cfg.GetAllSub("remote", remote, "fetch") {
		if dst, ok := mapRefspec(spec, merge); ok {
			return dst, true
		}
	}
	return "", false
}

// mapRefspec maps ref through one fetch refspec ("+refs/heads/*:refs/
// remotes/origin/*", or without a glob), or says it does not map it.
func mapRefspec(spec, ref string) (string, bool) {
	spec = strings.TrimPrefix(strings.TrimSpace(spec), "+")
	src, dst, ok := strings.Cut(spec, ":")
	if !ok || dst == "" || strings.HasPrefix(src, "^") {
		return "", false
	}
	before, after, glob := strings.Cut(src, "*")
	if !glob {
		if src != ref {
			return "", false
		}
		return dst, true
	}
	if !strings.HasPrefix(ref, before) || !strings.HasSuffix(ref, after) || len(ref) < len(before)+len(after) {
		return "", false
	}
	matched := ref[len(before) : len(ref)-len(after)]
	dstBefore, dstAfter, ok := strings.Cut(dst, "*")
	if !ok {
		return "", false
	}
	return dstBefore + matched + dstAfter, true
}

// shortRef is a ref as git prints an upstream: without refs/remotes/,
// refs/heads/ or refs/.
func shortRef(ref string) string {
	for _, p := range []string{"refs/remotes/", "refs/heads/", "refs/"} {
		if rest, ok := strings.CutPrefix(ref, p); ok {
			return rest
		}
	}
	return ref
}

// FileStat is one file of a diff stat.
type FileStat struct {
	Name             string
	From             string // the old name of a renamed file
	Added, Deleted   int
	Binary           bool
	OldSize, NewSize int64
}

// DiffStat returns `git diff --stat up...HEAD`: the changes on HEAD since
// its merge base with up.
func (r *Repo) DiffStat(ctx context.Context, head Head, up Upstream) ([]FileStat, error) {
	store, err := r.objects()
	if err != nil {
		return nil, err
	}
	base, err := r.mergeBase(ctx, head.Hash, up.Hash)
	if err != nil {
		return nil, err
	}
	if base.IsZero() {
		return nil, fmt.Errorf("fatal: %s...HEAD: no merge base", up.Name)
	}
	key := r.diffStatKey(base, head.Hash)
	driver, drivers := recordingDriver(func(path string) int { return r.diffDriverBinary(r.diffAttributes(), path) })
	if stats, ok := r.cachedDiffStat(key, driver); ok {
		return stats, nil
	}
	stats, err := r.diffStat(ctx, store, base, head.Hash, driver)
	if err == nil {
		r.keepDiffStat(key, drivers, stats)
	}
	return stats, err
}

// diffStat is the diff stat from base to head, each path's diff driver
// asked of driver.
func (r *Repo) diffStat(ctx context.Context, store *objects.Store, base, head plumbing.Hash, driver func(string) int) ([]FileStat, error) {
	from, err := store.Commit(base)
	if err != nil {
		return nil, err
	}
	to, err := store.Commit(head)
	if err != nil {
		return nil, err
	}
	var changes []fileChange
	if err := diffTrees(store, from.Tree, to.Tree, "", 0, &changes); err != nil {
		return nil, err
	}
	var loaded map[plumbing.Hash][]byte
	if rs := renameSettingsFor(r.cfg, false); rs.on {
		changes, loaded = pairRenames(store, changes, rs.limit, driver)
	}
	lineCounts := xdiff.Counts
	if strings.EqualFold(r.cfg.Get("diff.algorithm"), "minimal") {
		lineCounts = xdiff.CountsMinimal
	}
	stats, err := changeStats(ctx, changes, func(c fileChange) (FileStat, error) {
		return changeStat(store, loaded, c, driver, lineCounts)
	})
	sort.Slice(stats, func(i, j int) bool { return stats[i].Name < stats[j].Name })
	return stats, err
}

// maxStatWorkers bounds the files read at once: each holds both versions
// of a file in memory.
const maxStatWorkers = 4

// changeStats is each change's stat, the files shared between as many
// workers as the process has processors, at most maxStatWorkers: each file
// is read, inflated and diffed on its own, and one at a time left the
// second core idle (git diff --stat takes one). At ctx's end it returns
// the stats it has, with ctx's error; at a file's error, that error alone.
func changeStats(ctx context.Context, changes []fileChange, stat func(fileChange) (FileStat, error)) ([]FileStat, error) {
	out := make([]FileStat, len(changes))
	errs := make([]error, len(changes))
	done := make([]bool, len(changes))
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(changes) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
			out[i], errs[i] = stat(changes[i])
			done[i] = true
		}
	}
	var wg sync.WaitGroup
	// One worker is the calling goroutine: with one file, or one
	// processor, no goroutine is started.
	for range min(runtime.GOMAXPROCS(0), maxStatWorkers, len(changes)) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var stats []FileStat
	for i, st := range out {
		if done[i] {
			stats = append(stats, st)
		}
	}
	return stats, ctx.Err()
}

// fileChange is one file that differs between two trees.
type fileChange struct {
	path             string
	from, to         plumbing.Hash // zero where the file is absent
	fromMode, toMode uint32
	oldPath          string // where a renamed file was
}

// pairRenames turns each deleted file that git diff would pair with an
// added one into one renamed change under the new name. It also returns
// the blobs it read to compare them, by id, so that counting their lines
// does not inflate them again.
func pairRenames(store *objects.Store, changes []fileChange, limit int, driver func(path string) int) ([]fileChange, map[plumbing.Hash][]byte) {
	sort.Slice(changes, func(i, j int) bool { return changes[i].path < changes[j].path })
	var srcs, dsts []*renameFile
	var srcAt, dstAt []int
	side := func(path string, mode uint32, id plumbing.Hash) *renameFile {
		return &renameFile{path: path, mode: filemode.FileMode(mode), hash: id,
			load:   func() ([]byte, error) { return readBlob(store, id, MaxDiffBlob) },
			driver: func() int { return driver(path) }}
	}
	for i, c := range changes {
		switch {
		case c.fromMode == gitlinkMode || c.toMode == gitlinkMode:
			// submodules are never paired as renames
		case c.to.IsZero():
			srcs, srcAt = append(srcs, side(c.path, c.fromMode, c.from)), append(srcAt, i)
		case c.from.IsZero():
			dsts, dstAt = append(dsts, side(c.path, c.toMode, c.to)), append(dstAt, i)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 {
		return changes, nil
	}
	drop := map[int]bool{}
	for _, r := range detectRenames(srcs, dsts, limit) {
		src, dst := &changes[srcAt[r.src]], &changes[dstAt[r.dst]]
		dst.from, dst.fromMode, dst.oldPath = src.from, src.fromMode, src.path
		drop[srcAt[r.src]] = true
	}
	loaded := map[plumbing.Hash][]byte{}
	for _, f := range append(srcs, dsts...) {
		if f.read && f.content != nil {
			loaded[f.hash] = f.content
		}
	}
	return without(changes, drop), loaded
}

// diffTrees lists the files that differ, skipping identical subtrees.
func diffTrees(store *objects.Store, a, b plumbing.Hash, prefix string, depth int, out *[]fileChange) error {
	if a == b {
		return nil
	}
	if depth > objects.MaxTreeDepth {
		return objects.ErrTooDeep
	}
	entries := func(h plumbing.Hash) (map[string]objects.TreeEntry, error) {
		m := map[string]objects.TreeEntry{}
		if h.IsZero() {
			return m, nil
		}
		list, err := store.Tree(h)
		for _, e := range list {
			m[e.Name] = e
		}
		return m, err
	}
	ea, err := entries(a)
	if err != nil {
		return err
	}
	eb, err := entries(b)
	if err != nil {
		return err
	}
	for name, x := range ea {
		y, ok := eb[name]
		if err := diffEntry(store, prefix+name, x, y, ok, depth, out); err != nil {
			return err
		}
	}
	for name, y := range eb {
		if _, ok := ea[name]; !ok {
			if err := diffEntry(store, prefix+name, objects.TreeEntry{}, y, true, depth, out); err != nil {
				return err
			}
		}
	}
	return nil
}

func diffEntry(store *objects.Store, path string, x, y objects.TreeEntry, inB bool, depth int, out *[]fileChange) error {
	xDir, yDir := x.Mode == 0o40000, inB && y.Mode == 0o40000
	if !inB {
		y = objects.TreeEntry{}
	}
	if x.Hash == y.Hash && x.Mode == y.Mode {
		return nil
	}
	var xTree, yTree plumbing.Hash
	if xDir {
		xTree = x.Hash
	}
	if yDir {
		yTree = y.Hash
	}
	if xDir || yDir {
		if err := diffTrees(store, xTree, yTree, path+"/", depth+1, out); err != nil {
			return err
		}
	}
	var from, to plumbing.Hash
	if !xDir {
		from = x.Hash
	}
	if !yDir {
		to = y.Hash
	}
	xBlob, yBlob := isBlobMode(x.Mode, xDir), isBlobMode(y.Mode, yDir)
	if (xBlob || yBlob) && (from != to || xBlob && yBlob && x.Mode != y.Mode) {
		c := fileChange{path: path, from: from, to: to}
		if xBlob {
			c.fromMode = x.Mode
		}
		if yBlob {
			c.toMode = y.Mode
		}
		*out = append(*out, c)
	}
	return nil
}

// isBlobMode says whether an entry is something whose content a diff
// stat counts: a file, a link, or a submodule, which git diffs as its one
// line "Subproject commit <id>".
func isBlobMode(mode uint32, dir bool) bool {
	return !dir && mode != 0
}

// MaxDiffBlob bounds a blob the diff stat counts the lines of: up to four
// workers hold both versions of a file each, and a hook must stay within
// tens of megabytes. A larger one is binary, as git counts a blob past
// core.bigFileThreshold (512 MiB by default).
const MaxDiffBlob = 64 << 20

// readBlob reads a blob of at most limit bytes.
func readBlob(s *objects.Store, h plumbing.Hash, limit int64) ([]byte, error) {
	typ, b, err := s.ReadLimit(h, limit)
	if err == nil && typ != objects.TypeBlob {
		err = fmt.Errorf("object %s is not a blob", h)
	}
	return b, err
}

// gitlinkMode is a submodule's mode in a tree.
const gitlinkMode = 0o160000

// changeStat counts the lines a change adds and deletes, as git does (its
// default Myers diff, or --minimal as diff.algorithm says), or
// reports sizes when either side is binary, by its diff attribute or its
// content (a NUL in the first 8000 bytes).
func changeStat(s *objects.Store, loaded map[plumbing.Hash][]byte, c fileChange, driver func(path string) int, lineCounts func(a, b []byte) (int, int)) (FileStat, error) {
	st := FileStat{Name: c.path, From: c.oldPath}
	read := func(h plumbing.Hash, mode uint32) ([]byte, error) {
		switch {
		case h.IsZero():
			return nil, nil
		case mode == gitlinkMode:
			return []byte("Subproject commit " + h.String() + "\n"), nil
		}
		if b, ok := loaded[h]; ok {
			return b, nil
		}
		return readBlob(s, h, MaxDiffBlob)
	}
	old, oldErr := read(c.from, c.fromMode)
	now, nowErr := read(c.to, c.toMode)
	var bigOld, bigNow *objects.TooLargeError
	// Both asked: either side may be over the bound, and each keeps its size.
	oldBig, nowBig := errors.As(oldErr, &bigOld), errors.As(nowErr, &bigNow)
	if oldBig || nowBig {
		// As git does past core.bigFileThreshold: binary, by its size.
		st.Binary, st.OldSize, st.NewSize = true, int64(len(old)), int64(len(now))
		if bigOld != nil {
			st.OldSize = bigOld.Size
		}
		if bigNow != nil {
			st.NewSize = bigNow.Size
		}
		return st, nil
	}
	if err := cmp.Or(oldErr, nowErr); err != nil {
		return st, err
	}
	oldPath := c.path
	if c.oldPath != "" {
		oldPath = c.oldPath
	}
	if isBinaryAs(driver(oldPath), old) || isBinaryAs(driver(c.path), now) {
		st.Binary = true
		if c.from != c.to { // git shows no sizes for the same content (a rename)
			st.OldSize, st.NewSize = int64(len(old)), int64(len(now))
		}
		return st, nil
	}
	st.Added, st.Deleted = lineCounts(old, now)
	return st, nil
}

func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// FormatStat lays out stats as git's show_stats does for an 80-column,
// non-terminal output, summary line last.
func FormatStat(stats []FileStat, quotePath bool) []string {
	if len(stats) == 0 {
		return nil
	}
	const width = 80
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	for _, s := range stats {
		if w := nameWidth(s.displayName(quotePath)); w > maxLen {
			maxLen = w
		}
		if s.Binary {
			if w := 14 + decimalWidth(int(s.NewSize)) + decimalWidth(int(s.OldSize)); w > binWidth {
				binWidth = w
			}
			numberWidth = 3
			continue
		}
		if c := s.Added + s.Deleted; c > maxChange {
			maxChange = c
		}
	}
	if w := decimalWidth(maxChange); w > numberWidth {
		numberWidth = w
	}
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameW := maxLen
	if nameW+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = width*3/8 - numberWidth - 6
			if graphWidth < 6 {
				graphWidth = 6
			}
		}
		if nameW > width-numberWidth-6-graphWidth {
			nameW = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameW
		}
	}
	var out []string
	insertions, deletions := 0, 0
	for _, s := range stats {
		name := fitName(s.displayName(quotePath), nameW)
		if s.Binary {
			line := fmt.Sprintf(" %s | %*s", name, numberWidth, "Bin")
			if s.OldSize != 0 || s.NewSize != 0 {
				line += fmt.Sprintf(" %d -> %d bytes", s.OldSize, s.NewSize)
			}
			out = append(out, line)
			continue
		}
		insertions += s.Added
		deletions += s.Deleted
		add, del := s.Added, s.Deleted
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		sep := ""
		if s.Added+s.Deleted > 0 {
			sep = " "
		}
		out = append(out, fmt.Sprintf(" %s | %*d%s%s%s", name, numberWidth, s.Added+s.Deleted, sep,
			strings.Repeat("+", add), strings.Repeat("-", del)))
	}
	return append(out, statSummary(len(stats), insertions, deletions))
}

// displayName is the name git's diff stat shows: a renamed file as
// "dir/{old => new}.txt" (pprint_rename).
func (s FileStat) displayName(quotePath bool) string {
	if s.From == "" {
		return quote.Path(s.Name, false, quotePath)
	}
	return renameName(s.From, s.Name, quotePath)
}

// renameName is git's pprint_rename: the common leading directories and
// trailing path components written once, the differing middle in braces;
// both names in full when either needs quoting.
func renameName(a, b string, quotePath bool) string {
	if qa, qb := quote.Path(a, false, quotePath), quote.Path(b, false, quotePath); qa != a || qb != b {
		return qa + " => " + qb
	}
	pfx := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			pfx = i + 1
		}
	}
	// The suffix may reach back into the prefix's final slash, never
	// further.
	sfx, adjust := 0, 0
	if pfx > 0 {
		adjust = 1
	}
	for i, j := len(a)-1, len(b)-1; i >= pfx-adjust && j >= pfx-adjust && a[i] == b[j]; i, j = i-1, j-1 {
		if a[i] == '/' {
			sfx = len(a) - i
		}
	}
	aMid, bMid := max(len(a)-pfx-sfx, 0), max(len(b)-pfx-sfx, 0)
	if pfx+sfx == 0 {
		return a + " => " + b
	}
	return a[:pfx] + "{" + a[pfx:pfx+aMid] + " => " + b[pfx:pfx+bMid] + "}" + a[len(a)-sfx:]
}

// fitName pads a name to w columns, or keeps its tail after "..." (cut at a
// slash when there is one), as git does.
func fitName(name string, w int) string {
	prefix, n := "", nameWidth(name)
	if w < n {
		prefix = "..."
		keep := w - 3
		if keep < 0 {
			keep = 0
		}
		for nameWidth(name) > keep {
			_, size := utf8.DecodeRuneInString(name)
			name = name[size:]
		}
		if i := strings.IndexByte(name, '/'); i >= 0 {
			name = name[i:]
		}
		w = keep
	}
	pad := w - nameWidth(name)
	if pad < 0 {
		pad = 0
	}
	return prefix + name + strings.Repeat(" ", pad)
}

func nameWidth(s string) int { return utf8.RuneCountInString(s) }

func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

func decimalWidth(n int) int {
	w := 1
	for ; n >= 10; n /= 10 {
		w++
	}
	return w
}

func statSummary(files, ins, del int) string {
	s := fmt.Sprintf(" %d file%s changed", files, plural(files))
	if ins > 0 || del == 0 {
		s += fmt.Sprintf(", %d insertion%s(+)", ins, plural(ins))
	}
	if del > 0 || ins == 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", del, plural(del))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// AheadBehind counts the commits reachable from head but not from up
// (ahead) and from up but not from head (behind), as `git rev-list
// --left-right --count head...up` and `git status` count them: by git's
// own walk (revwalk.go), which reads the commits git reads.
func (r *Repo) AheadBehind(ctx context.Context, head, up plumbing.Hash) (ahead, behind int, err error) {
	if head == up {
		return 0, 0, nil
	}
	w, err := r.revWalk(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer w.close()
	return w.leftRight(head, up)
}

// revWalk starts a walk of the repository's commits, with its
// commit-graph where git would read it.
func (r *Repo) revWalk(ctx context.Context) (*revWalk, error) {
	store, err := r.objects()
	if err != nil {
		return nil, err
	}
	return newRevWalk(ctx, store, r.commitGraph(store)), nil
}

// mergeBase is the merge base `git diff A...B` uses: the newest of the
// best common ancestors (git warns when there are several), or zero.
func (r *Repo) mergeBase(ctx context.Context, a, b plumbing.Hash) (plumbing.Hash, error) {
	w, err := r.revWalk(ctx)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer w.close()
	ca, cb := w.lookup(a), w.lookup(b)
	bases, err := w.mergeBases(ca, cb)
	if err != nil || len(bases) == 0 {
		return plumbing.ZeroHash, err
	}
	return bases[0].hash, nil
}
