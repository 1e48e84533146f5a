package gitdiag

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/index"
)

// readIndex decodes the index in one read: versions 2, 3 and 4 (the
// prefix-compressed names feature.manyFiles turns on), with the cache-tree
// extension. Its checksum is verified, as git does.
func (r *Repo) readIndex() (*index.File, error) {
	path, read := r.indexFile, readFile // GIT_INDEX_FILE: the user's to name
	if path == "" {
		path, read = filepath.Join(r.GitDir, "index"), r.readOwn
	}
	b, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &index.File{Version: 2}, nil // a fresh repository has no index yet
	} else if err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	idx, err := index.Decode(b)
	if err != nil {
		return nil, err
	}
	shared := func(name string) ([]byte, error) { return r.readOwn(filepath.Join(r.GitDir, name)) }
	if err := idx.MergeShared(shared); err != nil {
		return nil, err
	}
	idx.ModTime = fi.ModTime()
	r.indexMu.Lock()
	r.index = idx
	r.indexMu.Unlock()
	return idx, nil
}

// TracksUnder says whether the index holds a path below dir (relative to
// the directory the repository was opened from, slash-separated): files
// a repository commits are the repository's words, whoever wrote them.
//
// The index the status read is asked, not decoded again: a startup asks
// this after its probes, on every session.
func (r *Repo) TracksUnder(dir string) (bool, error) {
	r.indexMu.Lock()
	idx := r.index
	r.indexMu.Unlock()
	if idx == nil {
		var err error
		if idx, err = r.readIndex(); err != nil {
			return false, err
		}
	}
	prefix := r.Prefix + strings.TrimSuffix(dir, "/") + "/"
	i := sort.Search(len(idx.Entries), func(i int) bool { return idx.Entries[i].Name >= prefix })
	return i < len(idx.Entries) && strings.HasPrefix(idx.Entries[i].Name, prefix), nil
}
