package gitdiag

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// indexFile is the part of .git/index that status needs.
type indexFile struct {
	version uint32
	entries []*indexEntry
	tree    []byte    // the cache-tree extension, decoded on demand (cacheTree)
	link    []byte    // the split index's link extension (splitindex.go)
	sparse  bool      // a sparse index: directories outside the cone are entries (sparse.go)
	modTime time.Time // when the index was written, for the racy-git check
	// unsupported names a feature this decoder does not handle (an index
	// version or a required extension newer than it).
	unsupported string
}

// verifyChecksum checks the trailing SHA-1 of an index file; index.skipHash
// writes zeros there, which are accepted.
func verifyChecksum(b []byte) error {
	body, sum := b[:len(b)-20], b[len(b)-20:]
	if bytes.Equal(sum, make([]byte, 20)) {
		return nil
	}
	if h := sha1.Sum(body); !bytes.Equal(h[:], sum) {
		return fmt.Errorf("%w: bad checksum", errIndexCorrupt)
	}
	return nil
}

// indexEntry is one entry with the stat data git recorded for it.
type indexEntry struct {
	name                string
	hash                plumbing.Hash
	mode                filemode.FileMode
	ctimeSec, ctimeNsec uint32
	mtimeSec, mtimeNsec uint32
	dev, ino, uid, gid  uint32
	size                uint32
	stage               int
	assumeValid         bool // CE_VALID: git treats the file as unchanged
	skipWorktree        bool // sparse checkout: not in the work tree on purpose
	intentToAdd         bool // git add -N
}

// Index entry flags.
const (
	flagValid        = 0x8000
	flagExtended     = 0x4000
	flagSkipWorktree = 0x4000 // in the second flags word
	flagIntentToAdd  = 0x2000 // in the second flags word
)

var errIndexCorrupt = errors.New("fatal: index file is corrupt")

// readIndex decodes the index in one read: versions 2, 3 and 4 (the
// prefix-compressed names feature.manyFiles turns on), with the cache-tree
// extension. Its checksum is verified, as git does.
func (r *Repo) readIndex() (*indexFile, error) {
	path := filepath.Join(r.GitDir, "index")
	b, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &indexFile{version: 2}, nil // a fresh repository has no index yet
	} else if err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	idx, err := decodeIndex(b)
	if err != nil {
		return nil, err
	}
	if idx.link != nil && idx.unsupported == "" {
		if err := idx.mergeShared(r.GitDir); err != nil {
			return nil, err
		}
	}
	idx.modTime = fi.ModTime()
	return idx, nil
}

func decodeIndex(b []byte) (*indexFile, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, errIndexCorrupt
	}
	if err := verifyChecksum(b); err != nil {
		return nil, err
	}
	body := b[:len(b)-20]
	idx := &indexFile{version: binary.BigEndian.Uint32(b[4:8])}
	if idx.version < 2 || idx.version > 4 {
		idx.unsupported = fmt.Sprintf("index v%d", idx.version)
		return idx, nil
	}
	n := binary.BigEndian.Uint32(b[8:12])
	if uint64(n)*62 > uint64(len(body)) {
		return nil, errIndexCorrupt
	}
	idx.entries = make([]*indexEntry, 0, n)
	slab := make([]indexEntry, n) // one allocation for all entries
	pos, prev := 12, ""
	for i := uint32(0); i < n; i++ {
		e := &slab[i]
		next, err := decodeEntry(e, body, pos, idx.version, prev)
		if err != nil {
			return nil, err
		}
		if e.mode == filemode.Dir {
			idx.sparse = true
			if !e.isSparseDir() || !e.skipWorktree || e.stage != 0 {
				return nil, fmt.Errorf("%w: a directory entry that is not a sparse directory", errIndexCorrupt)
			}
		}
		idx.entries = append(idx.entries, e)
		pos, prev = next, e.name
	}
	return idx, idx.decodeExtensions(body[pos:])
}

func decodeEntry(e *indexEntry, b []byte, pos int, version uint32, prev string) (int, error) {
	if pos+62 > len(b) {
		return 0, errIndexCorrupt
	}
	u32 := func(at int) uint32 { return binary.BigEndian.Uint32(b[pos+at:]) }
	*e = indexEntry{
		ctimeSec: u32(0), ctimeNsec: u32(4), mtimeSec: u32(8), mtimeNsec: u32(12),
		dev: u32(16), ino: u32(20), mode: filemode.FileMode(u32(24)), uid: u32(28), gid: u32(32), size: u32(36),
	}
	copy(e.hash[:], b[pos+40:pos+60])
	flags := binary.BigEndian.Uint16(b[pos+60:])
	e.stage = int(flags>>12) & 3
	e.assumeValid = flags&flagValid != 0
	nameAt := pos + 62
	if flags&flagExtended != 0 {
		if version < 3 || nameAt+2 > len(b) {
			return 0, errIndexCorrupt
		}
		extra := binary.BigEndian.Uint16(b[nameAt:])
		e.skipWorktree = extra&flagSkipWorktree != 0
		e.intentToAdd = extra&flagIntentToAdd != 0
		nameAt += 2
	}
	if version == 4 {
		// The name is the previous one minus N bytes, plus a NUL-terminated
		// suffix; entries are not padded.
		strip, w := binary.Uvarint(b[nameAt:])
		if w <= 0 || strip > uint64(len(prev)) {
			return 0, errIndexCorrupt
		}
		end := bytes.IndexByte(b[nameAt+w:], 0)
		if end < 0 {
			return 0, errIndexCorrupt
		}
		e.name = prev[:len(prev)-int(strip)] + string(b[nameAt+w:nameAt+w+end])
		return nameAt + w + end + 1, nil
	}
	end := bytes.IndexByte(b[nameAt:], 0)
	if end < 0 {
		return 0, errIndexCorrupt
	}
	e.name = string(b[nameAt : nameAt+end])
	// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
	next := pos + ((nameAt - pos + end + 8) &^ 7)
	if next > len(b) {
		return 0, errIndexCorrupt
	}
	return next, nil
}

// decodeExtensions reads the cache tree and notes extensions that change
// what the entries mean.
func (idx *indexFile) decodeExtensions(b []byte) error {
	for len(b) >= 8 {
		sig, size := string(b[:4]), binary.BigEndian.Uint32(b[4:8])
		if uint64(size) > uint64(len(b)-8) {
			return errIndexCorrupt
		}
		data := b[8 : 8+size]
		switch {
		case sig == "TREE":
			idx.tree = data
		case sig == "link":
			idx.link = data
		case sig == "sdir":
			// Marks the directory entries as allowed: they are checked
			// for what they are when decoded.
		case sig[0] < 'A' || sig[0] > 'Z':
			// Extensions starting with a lower-case letter must be understood.
			idx.unsupported = "index extension " + strconv.Quote(sig)
		}
		b = b[8+size:]
	}
	return nil
}

// cacheRoot returns the tree id the cache tree records for the whole index,
// when it is valid: if it equals HEAD's tree, nothing is staged, and the
// rest of the extension need not be decoded.
func (idx *indexFile) cacheRoot() (plumbing.Hash, bool) {
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

// cacheTree decodes the whole cache-tree extension, or nil.
func (idx *indexFile) cacheTree() *cacheNode {
	if idx.tree == nil {
		return nil
	}
	return decodeCacheTree(idx.tree)
}

// decodeCacheTree rebuilds the cache-tree extension, a pre-order list of
// "path NUL entry-count SP subtree-count LF [id]" records, as a tree.
// A malformed extension is ignored: it only saves work.
func decodeCacheTree(b []byte) *cacheNode {
	var parse func() (*cacheNode, string, bool)
	parse = func() (*cacheNode, string, bool) {
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
		n := &cacheNode{valid: count >= 0, children: make(map[string]*cacheNode, subtrees)}
		if n.valid {
			if len(b) < 20 {
				return nil, "", false
			}
			copy(n.hash[:], b[:20])
			b = b[20:]
		}
		for i := 0; i < subtrees; i++ {
			child, childName, ok := parse()
			if !ok {
				return nil, "", false
			}
			n.children[childName] = child
		}
		return n, name, true
	}
	root, _, ok := parse()
	if !ok {
		return nil
	}
	return root
}
