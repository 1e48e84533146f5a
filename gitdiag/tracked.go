package gitdiag

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/gitdiag/format/wildmatch"
)

// trackedDir is one directory of the index with its direct children sorted
// by name. The walk matches a sorted directory listing against it in one
// merge: on the 30k-file benchmark, a map lookup per file by full path
// (a string built for each) took about a tenth of the walk's CPU time.
type trackedDir struct {
	path     string // slash-separated, "" for the top
	children []trackedChild
	count    int // directories in the tree, set on the top one

	foldOnce sync.Once
	folded   map[string]trackedChild // children by lower-cased name (core.ignoreCase)
}

// foldChild finds a child whose name equals name but for ASCII case, as
// git's index lookups do under core.ignoreCase.
func (td *trackedDir) foldChild(name string) (trackedChild, bool) {
	td.foldOnce.Do(func() {
		td.folded = make(map[string]trackedChild, len(td.children))
		for j := 0; j < len(td.children); {
			var c trackedChild
			c, j = child(td.children, j, td.children[j].name)
			key := lowerASCII(c.name)
			if prev, ok := td.folded[key]; ok {
				c.dir, c.entry = cmp.Or(c.dir, prev.dir), cmp.Or(c.entry, prev.entry)
			}
			td.folded[key] = c
		}
	})
	c, ok := td.folded[lowerASCII(name)]
	return c, ok
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = wildmatch.FoldCase(b[j], true)
			}
			return string(b)
		}
	}
	return s
}

// trackedChild is a name in a tracked directory. A valid index never holds
// both a file and a directory of one name, but a damaged one can: the
// merge sees adjacent children of equal name and combines them.
type trackedChild struct {
	name     string
	entry    *trackedEntry // the stage-0 entry of a file, link or submodule
	dir      *trackedDir   // a directory holding tracked paths
	unmerged bool          // the path has conflict stages
}

// buildTrackedTree turns the index's sorted entries into directories in
// one pass. Entries of one directory are contiguous in index order, so a
// stack of the directories open on the current path suffices.
func buildTrackedTree(entries []*trackedEntry) *trackedDir {
	root := &trackedDir{}
	dirs := []*trackedDir{root}
	stack := []*trackedDir{root}
	for _, e := range entries {
		for len(stack) > 1 && !inDir(e.Name, stack[len(stack)-1].path) {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		start := len(top.path)
		if start > 0 {
			start++ // past the slash
		}
		for {
			i := strings.IndexByte(e.Name[start:], '/')
			if i < 0 {
				break
			}
			d := &trackedDir{path: e.Name[:start+i]}
			top.children = append(top.children, trackedChild{name: e.Name[start : start+i], dir: d})
			dirs = append(dirs, d)
			stack = append(stack, d)
			top, start = d, start+i+1
		}
		name := e.Name[start:]
		kids := top.children
		if n := len(kids); n == 0 || kids[n-1].name != name || kids[n-1].dir != nil {
			top.children = append(kids, trackedChild{name: name})
		}
		c := &top.children[len(top.children)-1]
		if e.Stage == 0 {
			c.entry = e
		} else {
			c.unmerged = true
		}
	}
	for _, d := range dirs {
		// Index order puts "a.txt" before the directory "a" ('.' < '/'),
		// a listing sorted by name the other way round.
		slices.SortStableFunc(d.children, func(a, b trackedChild) int { return strings.Compare(a.name, b.name) })
	}
	root.count = len(dirs)
	return root
}

// inDir reports whether path lies below the directory dir ("" is the top).
func inDir(path, dir string) bool {
	return len(path) > len(dir) && path[len(dir)] == '/' && path[:len(dir)] == dir
}

// child returns what the index holds under name, combining the children of
// that name a damaged index may repeat. kids must be sorted by name; j is
// where the search starts and the returned index where the next one should.
func child(kids []trackedChild, j int, name string) (trackedChild, int) {
	for j < len(kids) && kids[j].name < name {
		j++
	}
	var c trackedChild
	for ; j < len(kids) && kids[j].name == name; j++ {
		k := kids[j]
		c.name = k.name
		if k.entry != nil {
			c.entry = k.entry
		}
		if k.dir != nil {
			c.dir = k.dir
		}
		c.unmerged = c.unmerged || k.unmerged
	}
	return c, j
}
