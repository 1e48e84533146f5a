package objects

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"

	"github.com/go-git/go-git/v5/plumbing"
)

// Store reads objects from a repository's packs and loose files. It looks
// ids up in each pack's .idx (one read around the interpolated place, see
// search) and reads only the entries it needs, so reading one commit costs
// a few small reads whatever the size of the history (go-git first maps
// every offset of the pack, a cost that grows with the history).
type Store struct {
	dir       string   // the repository's own objects directory
	looseDirs []string // it, then its alternates
	packs     []*pack  // guarded by packsMu: a rescan appends
	packsMu   sync.RWMutex
	rescanMu  sync.Mutex      // one rescan at a time
	known     map[string]bool // index files opened, guarded by rescanMu after OpenStore
	// Promisor is the remote a partial clone fetches the objects it lacks
	// from: an object not found is then said to be one of those.
	Promisor string
	// Shallow lists the commits of a shallow clone whose parents were not
	// fetched: git treats them as having none, and so do we.
	Shallow map[plumbing.Hash]bool
	// Grafts give commits other parents (info/grafts, deprecated but
	// still read by git); Replace reads a commit's content from another
	// object (refs/replace/), its id staying the one asked for.
	Grafts  map[plumbing.Hash][]plumbing.Hash
	Replace map[plumbing.Hash]plumbing.Hash
	mu      sync.Mutex
	cache   map[packOffset]cachedObject // recently decoded objects
	// cachedBytes is the size of the objects in cache.
	cachedBytes int
	// mappedWindows counts the windows of all packs read through their
	// mappings (see mayMap).
	mappedWindows int
	mappedLimit   int // mappedBudget in windows; tests lower it
	order         []packOffset
}

type packOffset struct {
	pack int
	off  int64
}

type cachedObject struct {
	typ  int
	data []byte
}

type pack struct {
	idx     *packIndex
	data    rawfile.Mapped
	windows map[int64]bool // the windows of data read through its mapping, guarded by Store.mu
	// blocks are the last blocks of the pack read with pread for a walk
	// of the history (blockReader), newest last, guarded by Store.mu.
	blocks []packBlock
}

// Object types, as numbered in pack files.
const (
	TypeCommit  = 1
	TypeTree    = 2
	TypeBlob    = 3
	TypeTag     = 4
	objOfsDelta = 6
	objRefDelta = 7
)

var ErrNotFound = errors.New("object not found")

// MaxTreeDepth is how deep trees may nest, git's core.maxTreeDepth default:
// no real directory nests deeper, and every walk down trees stops here
// rather than let a crafted chain of trees exhaust the stack.
const MaxTreeDepth = 2048

// ErrTooDeep is a tree nested deeper than MaxTreeDepth.
var ErrTooDeep = errors.New("fatal: tree exceeds the maximum tree depth")

// The cache of decoded pack entries is bounded in bytes, as git's delta
// base cache is (core.deltaBaseCacheLimit): bounded by count alone, 256
// entries of up to 1 MiB held 300 MB on a diff stat of 120 files of 800 KB.
const (
	cacheBytes     = 16 << 20 // the most the cache holds
	maxCachedEntry = 1 << 20  // a larger object is not kept
	cacheEntries   = 256      // nor more objects than this
)

// OpenStore opens a repository's object directory and those its
// objects/info/alternates file names (one level, as git reads them for
// the common case of clones made with --reference or --shared).
func OpenStore(objectsDir string) (*Store, error) {
	s := &Store{dir: objectsDir, cache: map[packOffset]cachedObject{}, known: map[string]bool{},
		mappedLimit: mappedBudget / mappedWindow}
	s.looseDirs = append([]string{objectsDir}, alternates(objectsDir)...)
	if err := s.scanPacks(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// scanPacks opens the packs not opened yet, as git's reprepare_packed_git
// does when an object is missing: a gc may have packed loose objects and
// removed them since the last scan. What a gc leaves behind or removes
// under us is passed over as git passes over it: an index whose pack is
// gone, a temporary index (.tmp-*, tmp_idx_*), an index too short to read.
// A pack already open stays readable after a gc deletes it.
func (s *Store) scanPacks() error {
	for _, dir := range s.looseDirs {
		found, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, n := range found {
			if s.known[n] {
				continue
			}
			idx, err := openPackIndex(n)
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				continue
			} else if err != nil {
				return err
			}
			data, err := rawfile.OpenMapped(n[:len(n)-len(".idx")] + ".pack")
			if err != nil {
				idx.f.Close()
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				return err
			}
			s.known[n] = true
			s.packsMu.Lock()
			s.packs = append(s.packs, &pack{idx: idx, data: data})
			s.packsMu.Unlock()
		}
	}
	return nil
}

// packList is the packs opened so far; a rescan only appends, so the
// positions in it never change.
func (s *Store) packList() []*pack {
	s.packsMu.RLock()
	defer s.packsMu.RUnlock()
	return s.packs
}

func (s *Store) Close() {
	for _, p := range s.packList() {
		p.idx.f.Close()
		p.data.Close()
	}
}

// Read returns an object's type and content. An object found nowhere is
// looked for once more after rescanning the packs.
func (s *Store) Read(h plumbing.Hash) (int, []byte, error) {
	return s.ReadLimit(h, maxObjectSize)
}

// ReadLimit is Read refusing, before inflating it, an object (or a delta
// base or delta on its way) larger than limit bytes: a few hundred bytes
// of zlib can claim hundreds of megabytes, and a commit needs none of that.
func (s *Store) ReadLimit(h plumbing.Hash, limit int64) (int, []byte, error) {
	typ, data, err := s.readAt(h, limit, &chain{left: baseLimit(limit)}, 0)
	if errors.Is(err, ErrNotFound) && s.Promisor != "" {
		err = fmt.Errorf("%w: this is a partial clone; git would fetch the object from %s", err, s.Promisor)
	}
	return typ, data, err
}

// readAt reads h at depth deltas down a chain: a delta's base named by its
// id (a ref delta) counts as one more, as a base at an offset does, so
// that two deltas naming each other are refused, not followed forever.
func (s *Store) readAt(h plumbing.Hash, limit int64, c *chain, depth int) (int, []byte, error) {
	typ, data, err := s.read(h, limit, c, depth)
	if errors.Is(err, ErrNotFound) {
		s.rescanMu.Lock()
		n := len(s.packList())
		if s.scanPacks() == nil && len(s.packList()) > n {
			s.rescanMu.Unlock()
			return s.read(h, limit, c, depth)
		}
		s.rescanMu.Unlock()
	}
	return typ, data, err
}

func (s *Store) read(h plumbing.Hash, limit int64, c *chain, depth int) (int, []byte, error) {
	for i, p := range s.packList() {
		if off, ok := p.idx.find(h); ok {
			return s.readPacked(i, off, depth, limit, c)
		}
	}
	return s.readLoose(h, min(limit, c.left))
}

// chain is what one read may hold at once on its way down a delta chain:
// every delta inflated above (each kept until its base comes back), then a
// base and the object made from it. One budget for the whole chain: a
// bound given afresh at each level let a 2.3 MB pack of deltas that copy
// their bases many times over reach a gigabyte.
type chain struct{ left int64 }

// hold takes n bytes from the budget, or says the chain cannot afford them.
func (c *chain) hold(n, limit int64) error {
	if n > c.left {
		return tooLarge(n, min(limit, c.left))
	}
	c.left -= n
	return nil
}

// Limits by type: what a legitimate object of each needs, far above any
// git writes for people (a commit message of megabytes, a tree of a
// hundred thousand entries), far below what a crafted one can claim.
const (
	MaxCommitSize = 16 << 20
	MaxTreeSize   = 16 << 20 // some 350,000 entries in one directory
	MaxTagSize    = 16 << 20
)

// limitOf is the bound for reading an object of type want.
func limitOf(want int) int64 {
	switch want {
	case TypeCommit:
		return MaxCommitSize
	case TypeTree:
		return MaxTreeSize
	case TypeTag:
		return MaxTagSize
	}
	return maxObjectSize
}

// ReadAs reads an object that must be of type want, within that type's
// limit.
func (s *Store) ReadAs(h plumbing.Hash, want int) ([]byte, error) {
	typ, data, err := s.ReadLimit(h, limitOf(want))
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", h, err)
	}
	if typ != want {
		return nil, fmt.Errorf("object %s is a %s, not a %s", h, typeName[typ], typeName[want])
	}
	return data, nil
}

var typeName = map[int]string{TypeCommit: "commit", TypeTree: "tree", TypeBlob: "blob", TypeTag: "tag"}

func (s *Store) readLoose(h plumbing.Hash, limit int64) (int, []byte, error) {
	hex := h.String()
	var compressed []byte
	for _, dir := range s.looseDirs {
		var err error
		compressed, err = rawfile.ReadFileLimit(filepath.Join(dir, hex[:2], hex[2:]), compressedBound(limit))
		if err == nil {
			break
		} else if errors.Is(err, rawfile.ErrTooLarge) {
			return 0, nil, fmt.Errorf("loose object %s: %w", hex, tooLarge(compressedBound(limit)+1, limit))
		} else if !errors.Is(err, os.ErrNotExist) {
			return 0, nil, err
		}
	}
	if compressed == nil {
		return 0, nil, ErrNotFound
	}
	// One read of the whole file and a hand-parsed header: a diff stat reads
	// hundreds of loose objects, where buffered readers and Sscanf cost more
	// than the inflating.
	zr, err := newInflater(bytes.NewReader(compressed))
	if err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", hex, err)
	}
	defer doneInflating(zr)
	var head [64]byte // "<type> <size>\x00": at most "commit 536870912\x00"
	n, err := io.ReadAtLeast(zr, head[:], 1)
	for err == nil && bytes.IndexByte(head[:n], 0) < 0 && n < len(head) {
		var m int
		m, err = zr.Read(head[n:])
		n += m
	}
	typ, size, rest, ok := looseHeader(head[:n])
	if !ok {
		return 0, nil, fmt.Errorf("loose object %s: bad header %q", hex, head[:min(n, 32)])
	}
	if size > maxObjectSize || len(rest) > size {
		return 0, nil, fmt.Errorf("loose object %s: bad size %d", hex, size)
	}
	if int64(size) > limit {
		return 0, nil, fmt.Errorf("loose object %s: %w", hex, tooLarge(int64(size), limit))
	}
	data := make([]byte, size)
	copy(data, rest)
	if _, err := io.ReadFull(zr, data[len(rest):]); err != nil {
		return 0, nil, fmt.Errorf("loose object %s: %w", hex, err)
	}
	return typ, data, nil
}

// compressedBound is the largest a loose object of at most limit bytes can
// be on disk: zlib's stored blocks add 5 bytes to every 64 KiB, and the
// header and stream framing a few dozen. A larger file is refused unread:
// read whole first, a 250 MiB loose commit cost 509 MB before its header
// said it was too large.
func compressedBound(limit int64) int64 {
	return limit + limit/8192 + 1024
}

// looseHeader parses "<type> <decimal size>\x00" and returns what follows it.
func looseHeader(b []byte) (typ, size int, rest []byte, ok bool) {
	end := bytes.IndexByte(b, 0)
	sp := bytes.IndexByte(b[:max(end, 0)], ' ')
	if end < 0 || sp < 0 {
		return 0, 0, nil, false
	}
	for t, name := range typeName {
		if string(b[:sp]) == name {
			typ = t
		}
	}
	digits := b[sp+1 : end]
	if typ == 0 || len(digits) == 0 || len(digits) > 10 || (digits[0] == '0' && len(digits) > 1) {
		return 0, 0, nil, false
	}
	for _, d := range digits {
		if d < '0' || d > '9' {
			return 0, 0, nil, false
		}
		size = size*10 + int(d-'0')
	}
	return typ, size, b[end+1:], true
}

// alternates lists the object directories objects/info/alternates names;
// relative entries are relative to objectsDir.
func alternates(objectsDir string) []string {
	b, err := rawfile.ReadFile(filepath.Join(objectsDir, "info", "alternates"))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(objectsDir, line)
		}
		out = append(out, filepath.Clean(line))
	}
	return out
}

// maxObjectSize bounds what one object may make us allocate: the probes
// read commits, trees and, for the diff stat, source files.
const maxObjectSize = 512 << 20

// maxDeltaDepth is well above git's default chain limit of 50.
const maxDeltaDepth = 100

// readPacked decodes the entry at off, keeping recent results: a tree walk
// or a history walk reads the same delta bases again and again.
func (s *Store) readPacked(pi int, off int64, depth int, limit int64, c *chain) (int, []byte, error) {
	key := packOffset{pi, off}
	s.mu.Lock()
	obj, ok := s.cache[key]
	s.mu.Unlock()
	if ok {
		if int64(len(obj.data)) > limit {
			return 0, nil, tooLarge(int64(len(obj.data)), limit)
		}
		return obj.typ, obj.data, nil
	}
	typ, data, err := s.decodePacked(pi, off, depth, limit, c)
	if err != nil || len(data) > maxCachedEntry {
		return typ, data, err
	}
	s.keep(key, cachedObject{typ, data})
	return typ, data, nil
}

// keep puts obj in the cache, the oldest objects out to make room.
func (s *Store) keep(key packOffset, obj cachedObject) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cache[key]; ok {
		return // a parallel reader decoded it too
	}
	for len(s.order) > 0 && (len(s.order) >= cacheEntries || s.cachedBytes+len(obj.data) > cacheBytes) {
		oldest := s.order[0]
		s.cachedBytes -= len(s.cache[oldest].data)
		delete(s.cache, oldest)
		s.order = s.order[1:]
	}
	s.cache[key] = obj
	s.cachedBytes += len(obj.data)
	s.order = append(s.order, key)
}

func (s *Store) decodePacked(pi int, off int64, depth int, limit int64, c *chain) (int, []byte, error) {
	if depth > maxDeltaDepth {
		return 0, nil, errors.New("delta chain too deep")
	}
	r := s.entryReader(s.packList()[pi], off)
	typ, size, err := entryHeader(r)
	if err != nil {
		return 0, nil, fmt.Errorf("pack entry at %d: %w", off, err)
	}
	isDelta := typ == objOfsDelta || typ == objRefDelta
	if !isDelta && size > min(limit, c.left) || isDelta && size > c.left {
		return 0, nil, fmt.Errorf("pack entry at %d: %w", off, tooLarge(size, min(limit, c.left)))
	}
	switch typ {
	case TypeCommit, TypeTree, TypeBlob, TypeTag:
		data, err := inflate(r, size)
		return typ, data, err
	case objOfsDelta:
		rel, err := ofsDeltaOffset(r)
		if err != nil || rel <= 0 || rel >= off { // git: the base lies after the pack header
			return 0, nil, fmt.Errorf("pack entry at %d: bad delta base offset", off)
		}
		return s.undelta(r, size, limit, c, func() (int, []byte, error) {
			return s.readPacked(pi, off-rel, depth+1, c.left, c)
		})
	case objRefDelta:
		var baseID plumbing.Hash
		if _, err := io.ReadFull(r, baseID[:]); err != nil {
			return 0, nil, err
		}
		return s.undelta(r, size, limit, c, func() (int, []byte, error) {
			typ, base, err := s.readAt(baseID, c.left, c, depth+1)
			if err != nil {
				err = fmt.Errorf("delta base %s: %w", baseID, err)
			}
			return typ, base, err
		})
	}
	return 0, nil, fmt.Errorf("pack entry at %d: unknown type %d", off, typ)
}

// undelta inflates a delta of size bytes from r, holds it while readBase
// reads its base within what the chain has left, and applies it: the
// object made must fit both limit and what the chain has left beside its
// base.
func (s *Store) undelta(r io.Reader, size, limit int64, c *chain, readBase func() (int, []byte, error)) (int, []byte, error) {
	delta, err := inflateDelta(r, size, limit)
	if err != nil {
		return 0, nil, err
	}
	if err := c.hold(int64(len(delta)), limit); err != nil {
		return 0, nil, err
	}
	defer func() { c.left += int64(len(delta)) }()
	baseType, base, err := readBase()
	if err != nil {
		return 0, nil, err
	}
	data, err := applyDelta(base, delta, min(limit, c.left-int64(len(base))))
	return baseType, data, err
}

// packReader reads an entry's header bytes one at a time and its zlib
// stream after them.
type packReader interface {
	io.Reader
	io.ByteReader
}

// mappedBudget bounds the part of the packs read through their mappings.
// Each page fault maps the 64 KiB window around it (the kernel's fault-around),
// and those pages count as the process's resident memory until it exits:
// a diff stat resolving ten thousand delta bases across a 60 MB pack kept
// 56 MB of it. Within the budget, and in windows already mapped, entries are
// read from memory; past it, new windows are read with pread, which costs a
// system call per entry (about 2 µs here) but maps nothing. 4 MiB keeps a
// hook, whose heap may reach 32 MiB before it collects, under 40 MB.
const (
	mappedWindow = 64 << 10
	mappedBudget = 4 << 20
)

// entryReader reads a pack from off: straight from memory when the pack is
// mapped and the read stays within the budget, else through a buffer over
// pread.
func (s *Store) entryReader(p *pack, off int64) packReader {
	if b := p.data.Bytes(); b != nil && s.mayMap(p, off) {
		if off > int64(len(b)) {
			off = int64(len(b))
		}
		return bytes.NewReader(b[off:])
	}
	return &chunkReader{f: p.data.Unmapped(), off: off, next: 512}
}

// mayMap says whether the entry at off may be read through the mapping,
// counting its window against the budget. An entry that runs past its
// window maps more than is counted: the budget bounds most of it.
func (s *Store) mayMap(p *pack, off int64) bool {
	w := off / mappedWindow
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.windows[w] {
		return true
	}
	if s.mappedWindows >= s.mappedLimit {
		return false
	}
	if p.windows == nil {
		p.windows = make(map[int64]bool)
	}
	p.windows[w] = true
	s.mappedWindows++
	return true
}

// commitReader reads a commit's entry for a walk of the history: through
// the mapping within its budget, else in blocks that stay read. git writes
// a pack's commits side by side, newest first, which is the order a walk
// asks for them: one read of a block serves the hundreds of commits in it,
// where a read per commit would cost a system call each, and the blocks
// kept bound the memory as the mapping's budget does.
func (s *Store) commitReader(p *pack, off int64) packReader {
	if b := p.data.Bytes(); b != nil && s.mayMap(p, off) {
		return s.entryReader(p, off)
	}
	return &blockReader{s: s, p: p, off: off}
}

// Blocks of a pack kept for walks of the history: 64 of 64 KiB. git/git's
// commits fill about 17 MiB of its pack; a walk of 30,000 of them with
// these reads 500 blocks, with 16 it read 2,800.
const (
	blockSize  = 64 << 10
	keptBlocks = 64
)

type packBlock struct {
	at   int64
	data []byte
}

// block returns the block of p at offset at (a multiple of blockSize).
func (s *Store) block(p *pack, at int64) ([]byte, error) {
	s.mu.Lock()
	for _, b := range p.blocks {
		if b.at == at {
			s.mu.Unlock()
			return b.data, nil
		}
	}
	s.mu.Unlock()
	buf := make([]byte, blockSize)
	n, err := p.data.Unmapped().ReadAt(buf, at)
	if n == 0 {
		if err == nil {
			err = io.ErrNoProgress
		}
		return nil, err
	}
	s.mu.Lock()
	if len(p.blocks) == keptBlocks {
		p.blocks = p.blocks[1:]
	}
	p.blocks = append(p.blocks, packBlock{at, buf[:n]})
	s.mu.Unlock()
	return buf[:n], nil
}

// blockReader reads a pack from an offset through the kept blocks.
type blockReader struct {
	s   *Store
	p   *pack
	off int64
	cur []byte // the rest of the current block from off
}

func (b *blockReader) fill() error {
	if len(b.cur) > 0 {
		return nil
	}
	at := b.off - b.off%blockSize
	data, err := b.s.block(b.p, at)
	if err != nil {
		return err
	}
	if b.off-at >= int64(len(data)) {
		return io.EOF
	}
	b.cur = data[b.off-at:]
	return nil
}

func (b *blockReader) ReadByte() (byte, error) {
	if len(b.cur) == 0 {
		if err := b.fill(); err != nil {
			return 0, err
		}
	}
	c := b.cur[0]
	b.cur, b.off = b.cur[1:], b.off+1
	return c, nil
}

func (b *blockReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := b.fill(); err != nil {
		return 0, err
	}
	n := copy(p, b.cur)
	b.cur, b.off = b.cur[n:], b.off+int64(n)
	return n, nil
}

// chunkReader reads a file from an offset with pread, in reads that start
// small (most entries are deltas of a few dozen bytes) and grow fourfold
// up to 64 KiB for the large ones.
type chunkReader struct {
	f    io.ReaderAt
	off  int64
	buf  []byte
	r, w int
	next int
	err  error
}

func (c *chunkReader) fill() bool {
	if c.r < c.w {
		return true
	}
	if c.err != nil {
		return false
	}
	if cap(c.buf) < c.next {
		c.buf = make([]byte, c.next)
	}
	n, err := c.f.ReadAt(c.buf[:c.next], c.off)
	c.off += int64(n)
	c.r, c.w = 0, n
	c.next = min(c.next*4, 64<<10)
	if n == 0 {
		if err == nil {
			err = io.ErrNoProgress
		}
		c.err = err
		return false
	}
	return true
}

func (c *chunkReader) ReadByte() (byte, error) {
	if !c.fill() {
		return 0, c.err
	}
	c.r++
	return c.buf[c.r-1], nil
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !c.fill() {
		return 0, c.err
	}
	n := copy(p, c.buf[c.r:c.w])
	c.r += n
	return n, nil
}

func entryHeader(r io.ByteReader) (typ int, size int64, err error) {
	b, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	typ = int(b>>4) & 7
	size = int64(b & 0x0f)
	for shift := 4; b&0x80 != 0; shift += 7 {
		if b, err = r.ReadByte(); err != nil {
			return 0, 0, err
		}
		if shift > 56 {
			return 0, 0, errors.New("size overflows")
		}
		size |= int64(b&0x7f) << shift
	}
	if size > maxObjectSize {
		return 0, 0, fmt.Errorf("object of %d bytes is too large", size)
	}
	return typ, size, nil
}

func ofsDeltaOffset(r io.ByteReader) (int64, error) {
	b, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	off := int64(b & 0x7f)
	for b&0x80 != 0 {
		if b, err = r.ReadByte(); err != nil {
			return 0, err
		}
		if off > 1<<55 {
			return 0, errors.New("offset overflows")
		}
		off = ((off + 1) << 7) | int64(b&0x7f)
	}
	return off, nil
}

// inflaters recycles zlib readers: each new one allocates about 40 KB of
// decompressor state, and a log reads a dozen objects.
var inflaters sync.Pool

func newInflater(r io.Reader) (io.ReadCloser, error) {
	if zr, ok := inflaters.Get().(io.ReadCloser); ok {
		if err := zr.(zlib.Resetter).Reset(r, nil); err != nil {
			return nil, err
		}
		return zr, nil
	}
	return zlib.NewReader(r)
}

func doneInflating(zr io.ReadCloser) {
	zr.Close()
	inflaters.Put(zr)
}

func inflate(r io.Reader, size int64) ([]byte, error) {
	zr, err := newInflater(r)
	if err != nil {
		return nil, err
	}
	defer doneInflating(zr)
	data := make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, fmt.Errorf("inflating: %w", err)
	}
	return data, nil
}

// applyDelta rebuilds an object from its base and a git delta: copy and
// insert instructions after the two sizes.
func applyDelta(base, delta []byte, limit int64) ([]byte, error) {
	srcSize, delta, ok := deltaSize(delta)
	if !ok || srcSize != uint64(len(base)) {
		return nil, errors.New("delta does not match its base")
	}
	dstSize, delta, ok := deltaSize(delta)
	if !ok || dstSize > maxObjectSize {
		return nil, errors.New("bad delta")
	}
	if dstSize > uint64(limit) {
		return nil, tooLarge(int64(dstSize), limit)
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			offset, ok1 := deltaField(op, 0, 4, &delta)
			n, ok2 := deltaField(op, 4, 3, &delta)
			if !ok1 || !ok2 {
				return nil, errors.New("truncated delta")
			}
			if n == 0 {
				n = 0x10000
			}
			if offset+n > uint64(len(base)) || uint64(len(out))+n > dstSize {
				return nil, errors.New("delta copies outside its base")
			}
			out = append(out, base[offset:offset+n]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dstSize {
				return nil, errors.New("truncated delta")
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("bad delta instruction")
		}
	}
	if uint64(len(out)) != dstSize {
		return nil, errors.New("delta result has the wrong size")
	}
	return out, nil
}

// deltaField reads the little-endian bytes of a copy instruction's offset
// (bits 0-3 of op say which of 4 bytes are present) or size (bits 4-6, 3
// bytes), consuming them from delta.
func deltaField(op byte, bit, count int, delta *[]byte) (uint64, bool) {
	var v uint64
	for i := 0; i < count; i++ {
		if op&(1<<(bit+i)) == 0 {
			continue
		}
		if len(*delta) == 0 {
			return 0, false
		}
		v |= uint64((*delta)[0]) << (8 * i)
		*delta = (*delta)[1:]
	}
	return v, true
}

func deltaSize(d []byte) (uint64, []byte, bool) {
	var size uint64
	for i, shift := 0, 0; i < len(d) && shift < 64; i, shift = i+1, shift+7 {
		size |= uint64(d[i]&0x7f) << shift
		if d[i]&0x80 == 0 {
			return size, d[i+1:], true
		}
	}
	return 0, nil, false
}

// find returns the pack offset of h.
func (p *packIndex) find(h plumbing.Hash) (int64, bool) {
	lo := uint32(0)
	if h[0] > 0 {
		lo = p.fanout[h[0]-1]
	}
	hi := p.fanout[h[0]]
	n := p.fanout[255]
	if lo >= hi || hi > n {
		return 0, false
	}
	i, ok := p.search(h, lo, hi)
	if !ok {
		return 0, false
	}
	return p.offset(i, n)
}

// searchWindow is the most names search reads around its guess: the guess
// is off by about half the square root of the bucket's size (binomially),
// so this holds h almost always, for buckets up to a hundred thousand names
// (packs of 25 million objects).
const searchWindow = 256

// windowFor is the names read around the guess in a bucket of n: four
// times the guess's typical error each side, at least 32, at most
// searchWindow (a walk of the history looks up tens of thousands of
// commits, and every name read is copied).
func windowFor(n uint32) uint32 {
	w := uint32(32)
	for w < searchWindow && uint64(w)*uint64(w) < 16*uint64(n) {
		w *= 2
	}
	return w
}

// search finds h among the names lo..hi-1 of one fan-out bucket. Object
// names are uniformly distributed, so h's place is guessed from its next
// bytes and the names around the guess are read at once: a lookup costs one
// read where a binary search over the bucket of a large pack (thousands of
// names) costs a dozen, or, mapped, as many page faults and pages of
// resident memory in a fresh process.
func (p *packIndex) search(h plumbing.Hash, lo, hi uint32) (uint32, bool) {
	guess := lo + uint32(uint64(hi-lo)*uint64(binary.BigEndian.Uint32(h[1:5]))>>32)
	window := windowFor(hi - lo)
	from := guess - min(guess-lo, window/2)
	to := min(from+window, hi)
	var buf [searchWindow * 20]byte
	names := buf[:(to-from)*20]
	if _, err := p.f.ReadAt(names, nameOffset(from)); err != nil {
		return 0, false
	}
	j := sort.Search(int(to-from), func(j int) bool { return bytes.Compare(names[20*j:20*j+20], h[:]) >= 0 })
	switch {
	case j < int(to-from) && bytes.Equal(names[20*j:20*j+20], h[:]):
		return from + uint32(j), true
	case j == 0 && from > lo:
		return p.bisect(h, lo, from)
	case j == int(to-from) && to < hi:
		return p.bisect(h, to, hi)
	}
	return 0, false
}

// bisect is the binary search over names lo..hi-1, for when the guess missed.
func (p *packIndex) bisect(h plumbing.Hash, lo, hi uint32) (uint32, bool) {
	var id plumbing.Hash
	for lo < hi {
		m := lo + (hi-lo)/2
		if _, err := p.f.ReadAt(id[:], nameOffset(m)); err != nil {
			return 0, false
		}
		switch c := bytes.Compare(id[:], h[:]); {
		case c < 0:
			lo = m + 1
		case c > 0:
			hi = m
		default:
			return m, true
		}
	}
	return 0, false
}

func nameOffset(i uint32) int64 { return int64(8+256*4) + int64(i)*20 }

func (p *packIndex) offset(i, n uint32) (int64, bool) {
	var b [8]byte
	at := int64(8+256*4) + int64(n)*24 + int64(i)*4
	if _, err := p.f.ReadAt(b[:4], at); err != nil {
		return 0, false
	}
	off := binary.BigEndian.Uint32(b[:4])
	if off&0x80000000 == 0 {
		return int64(off), true
	}
	large := int64(8+256*4) + int64(n)*28 + int64(off&0x7fffffff)*8
	if _, err := p.f.ReadAt(b[:], large); err != nil {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(b[:])), true
}

// Commit is the part of a commit the probes use.
type Commit struct {
	Hash    plumbing.Hash
	Tree    plumbing.Hash
	Parents []plumbing.Hash
	When    int64 // committer time, Unix seconds
	Message string
}

func (s *Store) Commit(h plumbing.Hash) (*Commit, error) {
	src := h
	if r, ok := s.Replace[h]; ok {
		src = r
	}
	data, err := s.ReadAs(src, TypeCommit)
	if err != nil {
		return nil, err
	}
	c, err := parseCommit(h, data)
	if err != nil {
		return c, err
	}
	if parents, ok := s.Grafts[h]; ok {
		c.Parents = parents
	}
	if s.Shallow[h] {
		c.Parents = nil
	}
	return c, nil
}

// CommitHeader reads what a walk of the history needs of a commit: its
// parents and committer date, with grafts, replacements and a shallow
// boundary applied as Commit applies them. A commit a pack holds whole (not
// as a delta) is inflated only as far as its committer line: the message,
// often most of its bytes, is not.
func (s *Store) CommitHeader(h plumbing.Hash) ([]plumbing.Hash, int64, error) {
	if _, replaced := s.Replace[h]; !replaced {
		if parents, when, ok := s.packedCommitHeader(h); ok {
			if g, ok := s.Grafts[h]; ok {
				parents = g
			}
			if s.Shallow[h] {
				parents = nil
			}
			return parents, when, nil
		}
	}
	c, err := s.Commit(h)
	if err != nil {
		return nil, 0, err
	}
	return c.Parents, c.When, nil
}

// packedCommitHeader inflates a packed commit up to its committer line and
// reads it; ok is false where Commit must read it instead (a delta, a loose
// object, a header it cannot read this way).
func (s *Store) packedCommitHeader(h plumbing.Hash) (parents []plumbing.Hash, when int64, ok bool) {
	for _, p := range s.packList() {
		off, found := p.idx.find(h)
		if !found {
			continue
		}
		r := s.commitReader(p, off)
		typ, size, err := entryHeader(r)
		if err != nil || typ != TypeCommit || size > MaxCommitSize {
			return nil, 0, false
		}
		zr, err := newInflater(r)
		if err != nil {
			return nil, 0, false
		}
		defer doneInflating(zr)
		buf := make([]byte, 0, min(size, 512))
		for int64(len(buf)) < size {
			n, err := zr.Read(buf[len(buf):min(int64(cap(buf)), size)])
			buf = buf[:len(buf)+n]
			if parents, when, done := commitHeader(buf); done {
				return parents, when, when != 0
			}
			if err != nil {
				return nil, 0, false
			}
			if len(buf) == cap(buf) {
				buf = slices.Grow(buf, len(buf))
			}
		}
		return nil, 0, false
	}
	return nil, 0, false
}

// commitHeader reads the tree, parent and committer lines of the start of
// a commit; done once the committer line is whole, or the header ended
// without one (when is then 0).
func commitHeader(data []byte) (parents []plumbing.Hash, when int64, done bool) {
	sawTree := false
	for {
		line, rest, whole := bytes.Cut(data, []byte{'\n'})
		if !whole {
			return nil, 0, false
		}
		data = rest
		key, value, _ := bytes.Cut(line, []byte{' '})
		switch {
		case len(line) == 0:
			return nil, 0, true
		case string(key) == "tree":
			sawTree = true
		case string(key) == "parent":
			if len(value) != 40 || !plumbing.IsHash(string(value)) {
				return nil, 0, true
			}
			parents = append(parents, plumbing.NewHash(string(value)))
		case string(key) == "committer":
			if !sawTree {
				return nil, 0, true
			}
			return parents, signatureTime(value), true
		}
	}
}

// parseCommit reads a commit object's tree, parents, committer time and
// message.
func parseCommit(h plumbing.Hash, data []byte) (*Commit, error) {
	c := &Commit{Hash: h}
	encoding := ""
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(line) == 0 {
			c.Message = string(data)
			break
		}
		key, value, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			c.Tree = plumbing.NewHash(string(value))
		case "parent":
			c.Parents = append(c.Parents, plumbing.NewHash(string(value)))
		case "committer":
			c.When = signatureTime(value)
		case "encoding":
			encoding = string(value)
		}
	}
	if c.Tree.IsZero() {
		return nil, fmt.Errorf("commit %s has no tree", h)
	}
	c.Message = reencode(c.Message, encoding)
	return c, nil
}

// reencode makes a message its encoding header names UTF-8, as git log
// does (to i18n.logOutputEncoding, UTF-8 by default): ISO-8859-1 and
// Windows-1252, the encodings git's own tests and real histories use. A
// message in another encoding stays as written, as git leaves one iconv
// cannot convert.
func reencode(msg, encoding string) string {
	name := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(strings.TrimSpace(encoding)))
	var high func(b byte) rune
	switch name {
	case "iso88591", "latin1", "l1", "cp819", "ibm819":
		high = func(b byte) rune { return rune(b) }
	case "cp1252", "windows1252":
		high = func(b byte) rune {
			if b >= 0x80 && b < 0xa0 && cp1252[b-0x80] != 0 {
				return cp1252[b-0x80]
			}
			return rune(b)
		}
	default:
		return msg
	}
	var sb strings.Builder
	for i := 0; i < len(msg); i++ {
		if b := msg[i]; b < 0x80 {
			sb.WriteByte(b)
		} else {
			sb.WriteRune(high(b))
		}
	}
	return sb.String()
}

// cp1252 is what Windows-1252 puts at 0x80-0x9f (0: as ISO-8859-1).
var cp1252 = [32]rune{0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178}

// signatureTime reads the Unix time of "Name <email> 1700000000 +0000".
func signatureTime(sig []byte) int64 {
	end := bytes.LastIndexByte(sig, '>')
	fields := bytes.Fields(sig[end+1:])
	if len(fields) == 0 {
		return 0
	}
	t, _ := strconv.ParseInt(string(fields[0]), 10, 64)
	return t
}

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Mode uint32
	Name string
	Hash plumbing.Hash
}

func (s *Store) Tree(h plumbing.Hash) ([]TreeEntry, error) {
	data, err := s.ReadAs(h, TypeTree)
	if err != nil {
		return nil, err
	}
	return parseTree(h, data)
}

// parseTree reads a tree object's entries: "mode name NUL id", repeated.
func parseTree(h plumbing.Hash, data []byte) ([]TreeEntry, error) {
	var out []TreeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			return nil, fmt.Errorf("tree %s is corrupt", h)
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("tree %s is corrupt", h)
		}
		e := TreeEntry{Mode: uint32(mode), Name: string(data[sp+1 : nul])}
		copy(e.Hash[:], data[nul+1:nul+21])
		out = append(out, e)
		data = data[nul+21:]
	}
	return out, nil
}

// baseLimit is the budget of a whole delta chain on the way to an object
// within limit (what it holds at once: the deltas, a base and the object
// made from it). git deltas the smaller of two versions against the
// larger, so a base may be larger than the object, but not without bound:
// twice the limit, at least 32 MiB, keeps a hook reading a commit or a
// tree under 100 MB whatever the chain claims.
func baseLimit(limit int64) int64 {
	return min(max(2*limit, 32<<20), maxObjectSize)
}

// inflateDelta inflates a delta and refuses it, by the size its header
// declares, when the object it makes is over limit: that size, not a
// base's, is the object's.
func inflateDelta(r io.Reader, size, limit int64) ([]byte, error) {
	delta, err := inflate(r, size)
	if err != nil {
		return nil, err
	}
	if _, rest, ok := deltaSize(delta); ok {
		if dst, _, ok := deltaSize(rest); ok && dst > uint64(limit) {
			return nil, tooLarge(int64(min(dst, maxObjectSize+1)), limit)
		}
	}
	return delta, nil
}

// TooLargeError is an object over the bound its reader gave, found by its
// declared size before it was inflated.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("an object of %d bytes is over the %d MiB its use allows", e.Size, e.Limit>>20)
}

func tooLarge(size, limit int64) error { return &TooLargeError{size, limit} }

// TagTarget returns what an annotated tag points to, or ok=false when h
// is not a tag.
func (s *Store) TagTarget(h plumbing.Hash) (plumbing.Hash, bool) {
	typ, data, err := s.ReadLimit(h, MaxTagSize)
	if err != nil || typ != TypeTag {
		return plumbing.ZeroHash, false
	}
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	target, ok := bytes.CutPrefix(line, []byte("object "))
	if !ok || !plumbing.IsHash(string(target)) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(string(target)), true
}
