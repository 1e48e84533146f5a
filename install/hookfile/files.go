package hookfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/internal/safefile"
)

// UsageError is a mistake in the command line (exit status 2); any other
// error is a failure (exit status 1).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// ProjectRoot is the top of the git work tree holding dir, where Claude
// Code looks for .claude/settings.json when started anywhere in it, and
// whether that is not dir itself. Outside a repository it is dir.
func ProjectRoot(dir string) (string, bool) {
	r, err := gitdiag.Open(dir)
	if err != nil || r.Bare || r.Root == "" {
		return dir, false
	}
	defer r.Close()
	abs, _ := filepath.Abs(dir)
	return r.Root, filepath.Clean(r.Root) != filepath.Clean(abs)
}

// MaxSettings bounds a settings file read: Claude Code's are kilobytes.
const MaxSettings = 16 << 20

// ReadFile reads a settings file (Claude Code's, or another agent's of the
// same shape) as install reads one: a regular file of bounded size; nil
// when there is none.
func ReadFile(path string) ([]byte, error) {
	b, _, err := Read(path)
	return b, err
}

// Read is ReadFile, and whether the file exists.
func Read(path string) ([]byte, bool, error) {
	b, err := safefile.Read(path, MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return b, true, nil
}

// ReadWithin is Read for a file that may lie in project: there it is read
// within the project, so that a committed .claude linked out of it names
// nothing we read; a file elsewhere (the user's settings) is read where it
// is.
func ReadWithin(project, path string) ([]byte, bool, error) {
	rel, err := filepath.Rel(project, path)
	if project == "" || err != nil || !filepath.IsLocal(rel) {
		return Read(path)
	}
	r, err := safefile.ParseRel(filepath.ToSlash(rel))
	if err != nil {
		return Read(path)
	}
	b, err := safefile.ReadIn(project, r, MaxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return b, true, nil
}

// Rehearsal is an entry of ours to run as its client runs it: the payload
// on stdin, the client's time limit, and what its output must be (Check
// says what is wrong with it, "" when nothing).
type Rehearsal struct {
	Event, Command string
	Limit          time.Duration
	Payload        []byte
	Check          func(stdout []byte) string
}
