package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// File is the part of .git/index that status needs.
type File struct {
	Version uint32
	Entries []*Entry
	tree    []byte    // the cache-tree extension, decoded on demand (cacheTree)
	link    []byte    // the split index's link extension (splitindex.go)
	untr    []byte    // the untracked cache extension, decoded on demand (untracked.go)
	Sparse  bool      // a sparse index: directories outside the cone are entries (sparse.go)
	ModTime time.Time // when the index was written, for the racy-git check
	// Unsupported names a feature this decoder does not handle (an index
	// version or a required extension newer than it).
	Unsupported string
}

// Entry is one entry with the stat data git recorded for it.
type Entry struct {
	Name                string
	Hash                plumbing.Hash
	Mode                filemode.FileMode
	CtimeSec, CtimeNsec uint32
	MtimeSec, MtimeNsec uint32
	Dev, Ino, UID, GID  uint32
	Size                uint32
	Stage               int
	AssumeValid         bool // CE_VALID: git treats the file as unchanged
	SkipWorktree        bool // sparse checkout: not in the work tree on purpose
	IntentToAdd         bool // git add -N
}

// Index entry flags.
const (
	flagValid        = 0x8000
	flagExtended     = 0x4000
	flagSkipWorktree = 0x4000 // in the second flags word
	flagIntentToAdd  = 0x2000 // in the second flags word
)

var ErrCorrupt = errors.New("fatal: index file is corrupt")

func Decode(b []byte) (*File, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, ErrCorrupt
	}
	// The trailing hash is not checked, as git does not check it but in
	// fsck: an index git reads is read, and hashing a large one (2 MB on
	// a 15k-file tree) cost every run a millisecond.
	body := b[:len(b)-20]
	idx := &File{Version: binary.BigEndian.Uint32(b[4:8])}
	if idx.Version < 2 || idx.Version > 4 {
		idx.Unsupported = fmt.Sprintf("index v%d", idx.Version)
		return idx, nil
	}
	n := binary.BigEndian.Uint32(b[8:12])
	if uint64(n)*62 > uint64(len(body)) {
		return nil, ErrCorrupt
	}
	idx.Entries = make([]*Entry, 0, n)
	slab := make([]Entry, n) // one allocation for all entries
	pos, prev := 12, ""
	names := maxNameBytes(len(body))
	for i := uint32(0); i < n; i++ {
		e := &slab[i]
		next, err := decodeEntry(e, body, pos, idx.Version, prev)
		if err != nil {
			return nil, err
		}
		if names -= len(e.Name); names < 0 {
			return nil, fmt.Errorf("%w: its names are longer than an index of its size holds", ErrCorrupt)
		}
		if e.Mode == filemode.Dir {
			idx.Sparse = true
			if !e.IsSparseDir() || !e.SkipWorktree || e.Stage != 0 {
				return nil, fmt.Errorf("%w: a directory entry that is not a sparse directory", ErrCorrupt)
			}
		}
		idx.Entries = append(idx.Entries, e)
		pos, prev = next, e.Name
	}
	return idx, idx.decodeExtensions(body[pos:])
}

// maxNameBytes bounds the names an index of size bytes decodes to. A
// version 4 index stores each name as a cut of the one before plus a
// suffix: a few bytes an entry can claim names that grow by one each, so a
// 4 MB index decoded to gigabytes. Every entry also holds 62 bytes of stat
// data and id, so real names, even long paths sharing little, add up to
// less than the index's size; four times it is left for any real tree.
func maxNameBytes(size int) int {
	return 4*size + 1<<20
}

func decodeEntry(e *Entry, b []byte, pos int, version uint32, prev string) (int, error) {
	if pos+62 > len(b) {
		return 0, ErrCorrupt
	}
	u32 := func(at int) uint32 { return binary.BigEndian.Uint32(b[pos+at:]) }
	*e = Entry{
		CtimeSec: u32(0), CtimeNsec: u32(4), MtimeSec: u32(8), MtimeNsec: u32(12),
		Dev: u32(16), Ino: u32(20), Mode: filemode.FileMode(u32(24)), UID: u32(28), GID: u32(32), Size: u32(36),
	}
	copy(e.Hash[:], b[pos+40:pos+60])
	flags := binary.BigEndian.Uint16(b[pos+60:])
	e.Stage = int(flags>>12) & 3
	e.AssumeValid = flags&flagValid != 0
	nameAt := pos + 62
	if flags&flagExtended != 0 {
		if version < 3 || nameAt+2 > len(b) {
			return 0, ErrCorrupt
		}
		extra := binary.BigEndian.Uint16(b[nameAt:])
		e.SkipWorktree = extra&flagSkipWorktree != 0
		e.IntentToAdd = extra&flagIntentToAdd != 0
		nameAt += 2
	}
	if version == 4 {
		// The name is the previous one minus N bytes, plus a NUL-terminated
		// suffix; entries are not padded. N is git's varint, not
		// LEB128: the two agree below 128 only.
		strip, rest, ok := varint(b[nameAt:])
		w := len(b[nameAt:]) - len(rest)
		if !ok || strip > uint64(len(prev)) {
			return 0, ErrCorrupt
		}
		end := bytes.IndexByte(b[nameAt+w:], 0)
		if end < 0 {
			return 0, ErrCorrupt
		}
		e.Name = prev[:len(prev)-int(strip)] + string(b[nameAt+w:nameAt+w+end])
		return nameAt + w + end + 1, nil
	}
	end := bytes.IndexByte(b[nameAt:], 0)
	if end < 0 {
		return 0, ErrCorrupt
	}
	e.Name = string(b[nameAt : nameAt+end])
	// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
	next := pos + ((nameAt - pos + end + 8) &^ 7)
	if next > len(b) {
		return 0, ErrCorrupt
	}
	return next, nil
}

// decodeExtensions reads the cache tree and notes extensions that change
// what the entries mean.
func (idx *File) decodeExtensions(b []byte) error {
	for len(b) >= 8 {
		sig, size := string(b[:4]), binary.BigEndian.Uint32(b[4:8])
		if uint64(size) > uint64(len(b)-8) {
			return ErrCorrupt
		}
		data := b[8 : 8+size]
		switch {
		case sig == "TREE":
			idx.tree = data
		case sig == "link":
			idx.link = data
		case sig == "UNTR":
			idx.untr = data
		case sig == "sdir":
			// Marks the directory entries as allowed: they are checked
			// for what they are when decoded.
		case sig[0] < 'A' || sig[0] > 'Z':
			// Extensions starting with a lower-case letter must be understood.
			idx.Unsupported = "index extension " + strconv.Quote(sig)
		}
		b = b[8+size:]
	}
	return nil
}

// CacheRoot returns the tree id the cache tree records for the whole index,
// when it is valid: if it equals HEAD's tree, nothing is staged, and the
// rest of the extension need not be decoded.
func (idx *File) CacheRoot() (plumbing.Hash, bool) {
	b := idx.tree
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return plumbing.ZeroHash, false
	}
	lf := bytes.IndexByte(b[nul:], '\n')
	if lf < 0 || bytes.HasPrefix(b[nul+1:], []byte("-")) || len(b) < nul+lf+1+20 {
		return plumbing.ZeroHash, false
	}
	var h plumbing.Hash
	copy(h[:], b[nul+lf+1:])
	return h, true
}

// CacheTree decodes the whole cache-tree extension, or nil.
func (idx *File) CacheTree() *CacheNode {
	if idx.tree == nil {
		return nil
	}
	return decodeCacheTree(idx.tree)
}

// decodeCacheTree rebuilds the cache-tree extension, a pre-order list of
// "path NUL entry-count SP subtree-count LF [id]" records, as a tree.
// A malformed extension is ignored: it only saves work. So is one nested
// deeper than a directory can be (maxCacheTreeDepth): a few MB of crafted
// records would otherwise recurse until the stack overflows.
func decodeCacheTree(b []byte) *CacheNode {
	var parse func(depth int) (*CacheNode, string, bool)
	parse = func(depth int) (*CacheNode, string, bool) {
		if depth > maxCacheTreeDepth {
			return nil, "", false
		}
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return nil, "", false
		}
		name := string(b[:nul])
		b = b[nul+1:]
		lf := bytes.IndexByte(b, '\n')
		if lf < 0 {
			return nil, "", false
		}
		countText, subText, _ := bytes.Cut(b[:lf], []byte{' '})
		count, err1 := strconv.Atoi(string(countText))
		subtrees, err2 := strconv.Atoi(string(subText))
		b = b[lf+1:]
		// Each subtree takes at least 5 bytes ("\x000 0\n"): a larger count
		// is damage, and as a map size hint it asked for gigabytes.
		if err1 != nil || err2 != nil || subtrees < 0 || subtrees > len(b)/5 {
			return nil, "", false
		}
		n := &CacheNode{Valid: count >= 0, Children: make(map[string]*CacheNode, subtrees)}
		if n.Valid {
			if len(b) < 20 {
				return nil, "", false
			}
			copy(n.Hash[:], b[:20])
			b = b[20:]
		}
		for i := 0; i < subtrees; i++ {
			child, childName, ok := parse(depth + 1)
			if !ok {
				return nil, "", false
			}
			n.Children[childName] = child
		}
		return n, name, true
	}
	root, _, ok := parse(0)
	if !ok {
		return nil
	}
	return root
}

// maxCacheTreeDepth is git's core.maxTreeDepth default: the cache tree
// mirrors the directories, which nest no deeper than trees may.
const maxCacheTreeDepth = 2048

// CacheNode is the index's cache-tree extension as a tree.
type CacheNode struct {
	Hash     plumbing.Hash
	Valid    bool
	Children map[string]*CacheNode
}

// Child is the node of a subdirectory, or nil.
func (n *CacheNode) Child(name string) *CacheNode {
	if n == nil {
		return nil
	}
	return n.Children[name]
}

// IsSparseDir says whether e is a sparse index's directory entry.
func (e *Entry) IsSparseDir() bool {
	return e.Mode == filemode.Dir && strings.HasSuffix(e.Name, "/")
}

// A split index (core.splitIndex) keeps most entries in a shared index,
// .git/sharedindex.<id>, and only the changes in .git/index: its link
// extension names the shared index and holds two EWAH bitmaps over the
// shared entries, those deleted, then those replaced (by the first entries
// of .git/index, in order, which carry no name); the remaining entries of
// .git/index are added. MergeShared does what git's merge_base_index does.

// MergeShared replaces the entries of a split index by the merged ones,
// reading the shared index with read (a name in the git directory); an
// index that is not split is left as it is.
func (idx *File) MergeShared(read func(name string) ([]byte, error)) error {
	link := idx.link
	if link == nil || idx.Unsupported != "" {
		return nil
	}
	if len(link) < 20 {
		return fmt.Errorf("%w: short link extension", ErrCorrupt)
	}
	var id plumbing.Hash
	copy(id[:], link[:20])
	if id.IsZero() {
		return nil // no shared index: every entry is here
	}
	deleted, rest, err := decodeEWAH(link[20:])
	if err != nil {
		return err
	}
	replaced, _, err := decodeEWAH(rest)
	if err != nil {
		return err
	}
	b, err := read("sharedindex." + id.String())
	if err != nil {
		return fmt.Errorf("fatal: cannot read the shared index of this split index: %w", err)
	}
	shared, err := Decode(b)
	if err != nil {
		return fmt.Errorf("the shared index: %w", err)
	}
	if shared.Unsupported != "" || shared.link != nil {
		return fmt.Errorf("%w: the shared index is itself split or unreadable", ErrCorrupt)
	}
	base := shared.Entries
	own := idx.Entries
	removed := make([]bool, len(base))
	n := 0
	err = eachBit(replaced, func(pos int) error {
		switch {
		case pos >= len(base) || n >= len(own):
			return fmt.Errorf("%w: replacement out of range", ErrCorrupt)
		case own[n].Name != "":
			return fmt.Errorf("%w: a replacing entry has a name", ErrCorrupt)
		}
		e := *own[n]
		e.Name = base[pos].Name
		base[pos] = &e
		n++
		return nil
	})
	if err != nil {
		return err
	}
	err = eachBit(deleted, func(pos int) error {
		if pos >= len(base) {
			return fmt.Errorf("%w: deletion out of range", ErrCorrupt)
		}
		removed[pos] = true
		return nil
	})
	if err != nil {
		return err
	}
	kept := base[:0:0]
	for i, e := range base {
		if !removed[i] {
			kept = append(kept, e)
		}
	}
	for _, e := range own[n:] {
		if e.Name == "" {
			return fmt.Errorf("%w: an added entry has no name", ErrCorrupt)
		}
	}
	idx.Entries = mergeEntries(kept, own[n:])
	return nil
}

// mergeEntries merges two sorted entry lists; an entry of adds replaces
// one of base with the same name and stage, as add_index_entry does.
func mergeEntries(base, adds []*Entry) []*Entry {
	out := make([]*Entry, 0, len(base)+len(adds))
	i, j := 0, 0
	for i < len(base) || j < len(adds) {
		switch {
		case j == len(adds):
			out = append(out, base[i])
			i++
		case i == len(base):
			out = append(out, adds[j])
			j++
		default:
			switch c := compareEntries(base[i], adds[j]); {
			case c < 0:
				out = append(out, base[i])
				i++
			case c > 0:
				out = append(out, adds[j])
				j++
			default:
				out = append(out, adds[j])
				i, j = i+1, j+1
			}
		}
	}
	return out
}

func compareEntries(a, b *Entry) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return a.Stage - b.Stage
}

// ewahBitmap is the 64-bit words of an EWAH-compressed bitmap.
type ewahBitmap []uint64

// decodeEWAH reads one EWAH bitmap as git writes it (ewah_io.c): its size
// in bits, its number of words, the words, and the position of the last
// run-length word; it returns the rest of b.
func decodeEWAH(b []byte) (ewahBitmap, []byte, error) {
	if len(b) < 8 {
		return nil, nil, fmt.Errorf("%w: short bitmap", ErrCorrupt)
	}
	words := binary.BigEndian.Uint32(b[4:8])
	end := 8 + 8*uint64(words) + 4
	if end > uint64(len(b)) {
		return nil, nil, fmt.Errorf("%w: short bitmap", ErrCorrupt)
	}
	bm := make(ewahBitmap, words)
	for i := range bm {
		bm[i] = binary.BigEndian.Uint64(b[8+8*i:])
	}
	return bm, b[end:], nil
}

// eachBit calls fn with the position of every set bit, in order, as git's
// ewah_each_bit. A run-length word holds the run bit (bit 0), the number of
// 64-bit words of that bit (bits 1 to 32) and the number of literal words
// that follow it (bits 33 to 63).
func eachBit(bm ewahBitmap, fn func(pos int) error) error {
	const maxPos = 1<<31 - 1 // more entries than any index can hold; fits a 32-bit int
	pos := 0
	for i := 0; i < len(bm); {
		w := bm[i]
		run := int((w>>1)&0xffffffff) * 64
		if w&1 != 0 {
			if pos+run > maxPos {
				return fmt.Errorf("%w: bitmap too long", ErrCorrupt)
			}
			for k := 0; k < run; k++ {
				if err := fn(pos + k); err != nil {
					return err
				}
			}
		}
		pos += run
		i++
		literals := int(w >> 33)
		if literals > len(bm)-i || pos+64*literals > maxPos {
			return fmt.Errorf("%w: bitmap too long", ErrCorrupt)
		}
		for k := 0; k < literals; k, i = k+1, i+1 {
			for c := 0; c < 64; c, pos = c+1, pos+1 {
				if bm[i]&(1<<c) != 0 {
					if err := fn(pos); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// varint decodes git's offset varint (varint.c): seven bits a byte, most
// significant first, each continuation adding one.
func varint(b []byte) (uint64, []byte, bool) {
	if len(b) == 0 {
		return 0, nil, false
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || v >= 1<<55 {
			return 0, nil, false
		}
		v++
		c = b[i]
		i++
		v = v<<7 + uint64(c&127)
	}
	return v, b[i:], true
}
