package gitdiag

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
)

// The repository's files are opened and read through rawfile.
var (
	openFile = rawfile.Open
	readFile = rawfile.ReadFile
)

// readOwn reads a file of the repository's git directory, following a
// link only within the repository: a packed-refs, an index or a shared
// index linked to another repository's is not read (noted, as git would
// read it).
func (r *Repo) readOwn(path string) ([]byte, error) {
	b, err := rawfile.ReadFileNoFollow(path)
	if !errors.Is(err, rawfile.ErrLink) {
		return b, err
	}
	if err := r.linkedOut(path); err != nil {
		return nil, err
	}
	return readFile(path)
}

// openOwn opens a file of the git directory as readOwn reads one.
func (r *Repo) openOwn(path string) (*os.File, error) {
	f, err := rawfile.OpenNoFollow(path)
	if !errors.Is(err, rawfile.ErrLink) {
		return f, err
	}
	if err := r.linkedOut(path); err != nil {
		return nil, err
	}
	return openFile(path)
}

// linkedOut says, noting it, when the link at path leads out of the
// repository.
func (r *Repo) linkedOut(path string) error {
	if r.within(path) {
		return nil
	}
	name := path
	if rel, err := filepath.Rel(r.CommonDir, path); err == nil && filepath.IsLocal(rel) {
		name = filepath.ToSlash(rel)
	}
	r.notFollowed(name + " (a link)")
	return fmt.Errorf("%s: %w", name, errLinkOut)
}

var errLinkOut = errors.New("a link out of the repository, not followed")
