package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"
)

// UntrackedCache is the index's untracked cache extension ("UNTR", git's
// dir.c, write_untracked_extension): for each directory git last read, its
// stat data, the hash of its .gitignore and the untracked names it found,
// so that a later status can skip reading a directory that has not changed.
type UntrackedCache struct {
	// Idents are where and on which system the cache was written ("Location
	// <work tree>, system <uname>"): a cache written elsewhere is not used.
	Idents []string
	// InfoExclude and ExcludesFile are the hashes of $GIT_DIR/info/exclude
	// and core.excludesFile when the cache was written (zero: no file).
	InfoExclude, ExcludesFile plumbing.Hash
	// DirFlags are the dir_struct flags of the status that wrote the cache
	// (DirShowOtherDirectories|DirHideEmptyDirectories for the default
	// untracked mode, 0 for -uall).
	DirFlags      uint32
	ExcludePerDir string // the per-directory ignore file: ".gitignore"
	Root          *UntrackedDir
}

// Flags of dir_struct that the untracked cache records (dir.h).
const (
	DirShowOtherDirectories = 1 << 1
	DirHideEmptyDirectories = 1 << 2
)

// UntrackedDir is one directory of the untracked cache.
type UntrackedDir struct {
	Name string
	// Untracked are the names git found untracked in the directory; a
	// directory shown whole ends with a slash.
	Untracked []string
	Dirs      []*UntrackedDir
	// Valid says Stat holds the directory's stat data when git read it.
	Valid bool
	Stat  Stat
	// CheckOnly marks a directory read only to learn whether it holds
	// anything untracked (an untracked directory).
	CheckOnly bool
	// ExcludeHash is the hash of the directory's .gitignore (zero: none).
	ExcludeHash plumbing.Hash
}

// Stat is git's stat_data.
type Stat struct {
	CtimeSec, CtimeNsec uint32
	MtimeSec, MtimeNsec uint32
	Dev, Ino, UID, GID  uint32
	Size                uint32
}

const statSize = 36 // nine 32-bit fields

func decodeStat(b []byte) Stat {
	u := func(i int) uint32 { return binary.BigEndian.Uint32(b[4*i:]) }
	return Stat{u(0), u(1), u(2), u(3), u(4), u(5), u(6), u(7), u(8)}
}

// UntrackedCache decodes the untracked cache extension: nil when the index
// has none, an error when it is malformed (git then ignores it too).
func (idx *File) UntrackedCache() (*UntrackedCache, error) {
	if idx.untr == nil {
		return nil, nil
	}
	return decodeUntracked(idx.untr)
}

func decodeUntracked(b []byte) (*UntrackedCache, error) {
	bad := func(what string) error { return fmt.Errorf("%w: untracked cache: %s", ErrCorrupt, what) }
	if len(b) < 2 || b[len(b)-1] != 0 {
		return nil, bad("no final NUL")
	}
	b = b[:len(b)-1]
	identLen, b, ok := varint(b)
	if !ok || identLen > uint64(len(b)) {
		return nil, bad("idents")
	}
	uc := &UntrackedCache{}
	for _, s := range bytes.Split(bytes.TrimSuffix(b[:identLen], []byte{0}), []byte{0}) {
		uc.Idents = append(uc.Idents, string(s))
	}
	b = b[identLen:]
	const fixed = 2*statSize + 4 + 2*20 // two stat_data, dir_flags, two hashes
	if len(b) < fixed {
		return nil, bad("short header")
	}
	uc.DirFlags = binary.BigEndian.Uint32(b[2*statSize:])
	copy(uc.InfoExclude[:], b[2*statSize+4:])
	copy(uc.ExcludesFile[:], b[2*statSize+4+20:])
	b = b[fixed:]
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return nil, bad("per-directory file name")
	}
	uc.ExcludePerDir, b = string(b[:nul]), b[nul+1:]
	if len(b) == 0 {
		return uc, nil // written before any status: no directories
	}
	count, b, ok := varint(b)
	if !ok || count == 0 || count > uint64(len(b)) {
		return nil, bad("directory count")
	}
	var dirs []*UntrackedDir // depth first, as written
	budget := int64(untrackedBudget)
	root, b, err := readUntrackedDir(b, &dirs, &budget, 0)
	if err != nil || uint64(len(dirs)) != count {
		return nil, bad("directories")
	}
	var valid, checkOnly, hashed ewahBitmap
	for _, bm := range []*ewahBitmap{&valid, &checkOnly, &hashed} {
		if *bm, b, err = decodeEWAH(b); err != nil {
			return nil, err
		}
	}
	at := func(pos int) (*UntrackedDir, error) {
		if pos >= len(dirs) {
			return nil, bad("bit past the directories")
		}
		return dirs[pos], nil
	}
	err = eachBit(checkOnly, func(pos int) error {
		d, err := at(pos)
		if err == nil {
			d.CheckOnly = true
		}
		return err
	})
	if err == nil {
		err = eachBit(valid, func(pos int) error {
			d, err := at(pos)
			if err != nil || len(b) < statSize {
				return bad("stat data")
			}
			d.Valid, d.Stat, b = true, decodeStat(b), b[statSize:]
			return nil
		})
	}
	if err == nil {
		err = eachBit(hashed, func(pos int) error {
			d, err := at(pos)
			if err != nil || len(b) < 20 {
				return bad("ignore file hashes")
			}
			copy(d.ExcludeHash[:], b)
			b = b[20:]
			return nil
		})
	}
	if err != nil {
		return nil, err
	}
	uc.Root = root
	return uc, nil
}

// untrackedBudget bounds the memory the decoded cache may take. Each name
// costs a string header beside its bytes and each directory a struct of
// about 150 bytes, so a count checked only against the bytes left could
// ask for 16 to 50 times the extension's size (a 57 MB index: 982 MB). A
// work tree of 50,000 directories needs about 10 MB; past the budget the
// extension is ignored, as git ignores one it cannot read: it only saves
// work.
const untrackedBudget = 32 << 20

// untrackedDirCost is what one directory costs decoded, beside its names:
// its struct, its place in its parent's list and in the list of all
// (which grows by doubling).
const untrackedDirCost = int64(unsafe.Sizeof(UntrackedDir{})) + 8 + 16

// readUntrackedDir reads one directory block and, depth first, those of
// its subdirectories, each charged to budget before it is allocated.
func readUntrackedDir(b []byte, all *[]*UntrackedDir, budget *int64, depth int) (*UntrackedDir, []byte, error) {
	if depth > 4096 {
		return nil, nil, ErrCorrupt
	}
	nUntracked, b, ok1 := varint(b)
	nDirs, b, ok2 := varint(b)
	if !ok1 || !ok2 || nUntracked > uint64(len(b)) || nDirs > uint64(len(b)) {
		return nil, nil, ErrCorrupt
	}
	*budget -= untrackedDirCost + int64(nUntracked)*16 + int64(nDirs)*8
	if *budget < 0 {
		return nil, nil, ErrCorrupt
	}
	name, b, ok := cString(b)
	if !ok {
		return nil, nil, ErrCorrupt
	}
	d := &UntrackedDir{Name: name, Untracked: make([]string, nUntracked), Dirs: make([]*UntrackedDir, nDirs)}
	for i := range d.Untracked {
		if d.Untracked[i], b, ok = cString(b); !ok {
			return nil, nil, ErrCorrupt
		}
		if *budget -= int64(len(d.Untracked[i])); *budget < 0 {
			return nil, nil, ErrCorrupt
		}
	}
	*all = append(*all, d)
	for i := range d.Dirs {
		var err error
		if d.Dirs[i], b, err = readUntrackedDir(b, all, budget, depth+1); err != nil {
			return nil, nil, err
		}
	}
	return d, b, nil
}

func cString(b []byte) (string, []byte, bool) {
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return "", nil, false
	}
	return string(b[:nul]), b[nul+1:], true
}
