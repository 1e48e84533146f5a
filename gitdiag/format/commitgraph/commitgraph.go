package commitgraph

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
)

const (
	hashLen    = 20 // SHA-1: a SHA-256 graph is not read
	dataLen    = hashLen + 16
	noParent   = 0x70000000
	extraEdges = 0x80000000
	lastEdge   = 0x80000000
	// maxLayers bounds a chain: git merges layers long before this.
	maxLayers = 64
	// offsetOverflow marks a corrected date offset kept in GDO2.
	offsetOverflow = 0x80000000
)

// ErrCorrupt is a commit-graph that fails a check of its structure.
var ErrCorrupt = errors.New("commit-graph is corrupt")

// Graph is a commit-graph: one file, or a chain of layers, base first.
type Graph struct {
	layers []*layer
	// Corrected says every layer has corrected commit dates (GDA2): git
	// then orders its walks by them. Without, the generation is the
	// topological level, which git uses only to cut a walk short.
	Corrected bool
	// Levels says the graph has generation numbers at all (git's
	// generation_numbers_enabled: the top layer's first commit has a
	// level), which decides how git removes redundant merge bases.
	Levels bool
}

type layer struct {
	file                      rawfile.Mapped
	base                      uint32 // commits in the layers below
	n                         uint32
	fanout, oids, data, edges []byte
	generations, genOverflow  []byte
}

// Commit is what the graph holds of one commit.
type Commit struct {
	Parents []Pos
	When    int64 // committer date, Unix seconds
	// Generation is the corrected commit date when the graph has them
	// (Graph.Corrected), else the topological level.
	Generation uint64
}

// Pos is a commit's place in the graph, across its layers.
type Pos uint32

// Open reads the commit-graph of the objects directory: the single file
// when there is one (git looks there first), else the chain. A repository
// without either has no graph: nil, nil. corrected says whether to read
// corrected commit dates (git's commitGraph.generationVersion, 2 unless
// set lower).
func Open(objectsDir string, corrected bool) (*Graph, error) {
	single := filepath.Join(objectsDir, "info", "commit-graph")
	l, err := openLayer(single, 0, nil)
	if err == nil {
		return finish([]*layer{l}, corrected), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	layers, err := openChain(filepath.Join(objectsDir, "info", "commit-graphs"))
	if len(layers) == 0 {
		return nil, err
	}
	return finish(layers, corrected), nil
}

// openChain reads the layers the chain file lists, base first, as far as
// they are valid: git uses the layers below the first it cannot read.
func openChain(dir string) ([]*layer, error) {
	f, err := rawfile.Open(filepath.Join(dir, "commit-graph-chain"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var layers []*layer
	var base uint32
	var below []byte
	sc := bufio.NewScanner(io.LimitReader(f, maxLayers*(2*hashLen+1)))
	for sc.Scan() {
		name := sc.Text()
		if len(name) != 2*hashLen || !plumbing.IsHash(name) {
			return layers, fmt.Errorf("%w: a chain line is %q", ErrCorrupt, name)
		}
		l, err := openLayer(filepath.Join(dir, "graph-"+name+".graph"), base, below)
		if err != nil {
			return layers, err
		}
		layers = append(layers, l)
		base += l.n
		below = []byte(name)
	}
	return layers, nil
}

func finish(layers []*layer, corrected bool) *Graph {
	top := layers[len(layers)-1]
	g := &Graph{layers: layers, Corrected: corrected,
		Levels: top.n > 0 && binary.BigEndian.Uint32(top.data[hashLen+8:])>>2 != 0}
	for _, l := range layers {
		g.Corrected = g.Corrected && l.generations != nil
	}
	return g
}

func closeAll(layers []*layer) {
	for _, l := range layers {
		l.file.Close()
	}
}

// Close releases the files.
func (g *Graph) Close() error {
	if g != nil {
		closeAll(g.layers)
	}
	return nil
}

// openLayer reads one file's header and chunk table. below is the name of
// the layer under it, which its BASE chunk must end with.
func openLayer(path string, base uint32, below []byte) (*layer, error) {
	m, err := rawfile.OpenMapped(path)
	if err != nil {
		return nil, err
	}
	b := m.Bytes()
	if b == nil {
		if b, err = readAll(m); err != nil {
			m.Close()
			return nil, err
		}
	}
	l, err := parse(b, base)
	if err == nil && below != nil && (len(l.baseHashes) < hashLen ||
		plumbing.NewHash(string(below)) != plumbing.Hash(l.baseHashes[len(l.baseHashes)-hashLen:])) {
		err = fmt.Errorf("%w: %s does not follow the layer below", ErrCorrupt, filepath.Base(path))
	}
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l.file = m
	return l.layer, nil
}

func readAll(m rawfile.Mapped) ([]byte, error) {
	var buf bytes.Buffer
	_, err := io.Copy(&buf, io.NewSectionReader(m, 0, rawfile.MaxFile+1))
	if buf.Len() > rawfile.MaxFile {
		return nil, rawfile.ErrTooLarge
	}
	return buf.Bytes(), err
}

type parsed struct {
	*layer
	baseHashes []byte
}

// parse checks the header and the chunks it needs: their presence, their
// sizes against the number of commits, and the order of the fan-out.
func parse(b []byte, base uint32) (parsed, error) {
	const header = 8
	if len(b) < header || string(b[:4]) != "CGPH" || b[4] != 1 {
		return parsed{}, fmt.Errorf("%w: not a version 1 commit-graph", ErrCorrupt)
	}
	if b[5] != 1 {
		return parsed{}, fmt.Errorf("%w: not a SHA-1 commit-graph", ErrCorrupt)
	}
	chunks := int(b[6])
	table := b[header:]
	if len(table) < (chunks+1)*12 {
		return parsed{}, fmt.Errorf("%w: the chunk table is cut", ErrCorrupt)
	}
	got := map[string][]byte{}
	for i := range chunks {
		id := string(table[i*12 : i*12+4])
		start := binary.BigEndian.Uint64(table[i*12+4:])
		end := binary.BigEndian.Uint64(table[(i+1)*12+4:])
		if start > end || end > uint64(len(b)) {
			return parsed{}, fmt.Errorf("%w: chunk %q lies outside the file", ErrCorrupt, id)
		}
		got[id] = b[start:end]
	}
	l := &layer{base: base, fanout: got["OIDF"], oids: got["OIDL"], data: got["CDAT"], edges: got["EDGE"],
		generations: got["GDA2"], genOverflow: got["GDO2"]}
	if len(l.fanout) != 256*4 {
		return parsed{}, fmt.Errorf("%w: no fan-out", ErrCorrupt)
	}
	prev := uint32(0)
	for i := range 256 {
		v := binary.BigEndian.Uint32(l.fanout[i*4:])
		if v < prev {
			return parsed{}, fmt.Errorf("%w: the fan-out goes down", ErrCorrupt)
		}
		prev = v
	}
	l.n = prev
	if uint64(len(l.oids)) != uint64(l.n)*hashLen || uint64(len(l.data)) != uint64(l.n)*dataLen ||
		uint64(base)+uint64(l.n) >= noParent {
		return parsed{}, fmt.Errorf("%w: %d commits do not fit its chunks", ErrCorrupt, l.n)
	}
	if l.generations != nil && uint64(len(l.generations)) != uint64(l.n)*4 {
		l.generations = nil // git ignores a generation chunk of the wrong size
	}
	return parsed{layer: l, baseHashes: got["BASE"]}, nil
}

// Lookup finds a commit's place, as git's bsearch_graph does.
func (g *Graph) Lookup(h plumbing.Hash) (Pos, bool) {
	for _, l := range g.layers {
		lo := uint32(0)
		if h[0] > 0 {
			lo = binary.BigEndian.Uint32(l.fanout[(int(h[0])-1)*4:])
		}
		hi := binary.BigEndian.Uint32(l.fanout[int(h[0])*4:])
		if lo > hi {
			continue
		}
		i := lo + uint32(sort.Search(int(hi-lo), func(i int) bool {
			at := (lo + uint32(i)) * hashLen
			return bytes.Compare(l.oids[at:at+hashLen], h[:]) >= 0
		}))
		if i < hi && bytes.Equal(l.oids[i*hashLen:(i+1)*hashLen], h[:]) {
			return Pos(l.base + i), true
		}
	}
	return 0, false
}

// Hash is the id of the commit at p.
func (g *Graph) Hash(p Pos) (plumbing.Hash, error) {
	l, i, err := g.at(p)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return plumbing.Hash(l.oids[i*hashLen : (i+1)*hashLen]), nil
}

func (g *Graph) at(p Pos) (*layer, uint32, error) {
	for _, l := range g.layers {
		if uint32(p) >= l.base && uint32(p) < l.base+l.n {
			return l, uint32(p) - l.base, nil
		}
	}
	return nil, 0, fmt.Errorf("%w: no commit at position %d", ErrCorrupt, p)
}

// Commit reads the commit at p.
func (g *Graph) Commit(p Pos) (Commit, error) {
	l, i, err := g.at(p)
	if err != nil {
		return Commit{}, err
	}
	d := l.data[i*dataLen+hashLen : (i+1)*dataLen]
	p1, p2 := binary.BigEndian.Uint32(d), binary.BigEndian.Uint32(d[4:])
	genAndHigh, low := binary.BigEndian.Uint32(d[8:]), binary.BigEndian.Uint32(d[12:])
	c := Commit{When: int64(uint64(genAndHigh&3)<<32 | uint64(low)), Generation: uint64(genAndHigh >> 2)}
	if p1 != noParent {
		c.Parents = append(c.Parents, Pos(p1))
	}
	switch {
	case p2 == noParent:
	case p2&extraEdges == 0:
		c.Parents = append(c.Parents, Pos(p2))
	default:
		if c.Parents, err = l.extra(c.Parents, p2&^extraEdges); err != nil {
			return Commit{}, err
		}
	}
	if g.Corrected {
		if c.Generation, err = l.corrected(i, c.When); err != nil {
			return Commit{}, err
		}
	}
	for _, q := range c.Parents {
		if uint32(q) >= l.base+l.n {
			// A parent is always in the same layer or below.
			return Commit{}, fmt.Errorf("%w: a parent at position %d, past its layer", ErrCorrupt, q)
		}
	}
	return c, nil
}

// extra appends the parents listed in EDGE from index k: an octopus merge's
// second parent and those after it, the last one flagged.
func (l *layer) extra(parents []Pos, k uint32) ([]Pos, error) {
	for ; ; k++ {
		if uint64(k)*4+4 > uint64(len(l.edges)) {
			return nil, fmt.Errorf("%w: an extra edge past the list", ErrCorrupt)
		}
		e := binary.BigEndian.Uint32(l.edges[k*4:])
		parents = append(parents, Pos(e&^lastEdge))
		if e&lastEdge != 0 {
			return parents, nil
		}
	}
}

// corrected is the corrected commit date: the date plus the stored offset.
func (l *layer) corrected(i uint32, when int64) (uint64, error) {
	off := uint64(binary.BigEndian.Uint32(l.generations[i*4:]))
	if off&offsetOverflow != 0 {
		k := off &^ offsetOverflow
		if k*8+8 > uint64(len(l.genOverflow)) {
			return 0, fmt.Errorf("%w: a generation overflow past its chunk", ErrCorrupt)
		}
		off = binary.BigEndian.Uint64(l.genOverflow[k*8:])
	}
	return uint64(when) + off, nil
}
