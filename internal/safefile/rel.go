package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// A Rel is a path a repository (or its configuration) names for a file of
// the project: relative, slash-separated, with no ".." leading out of it.
// Reading through ReadIn, OpenIn and StatIn also refuses a link that
// leads out of the project, at the moment of the open (os.Root). It is
// the one way a hook reads a file a repository names, so no key, today's
// or a future one, can put a file outside the project in front of the
// model.
type Rel string

// ErrOutside is returned for a path, or a link on it, leading out of the
// project.
var ErrOutside = errors.New("leads outside the project")

// ParseRel checks a path a repository names: not absolute (nor a drive or
// a UNC name, nor ~), no ".." leading out, no NUL. The path is returned
// cleaned.
func ParseRel(s string) (Rel, error) {
	slashed := strings.ReplaceAll(s, `\`, "/")
	switch {
	case strings.TrimSpace(s) == "":
		return "", errors.New("is empty")
	case strings.ContainsRune(s, 0):
		return "", errors.New("holds a NUL byte")
	case strings.HasPrefix(slashed, "/"), filepath.IsAbs(s), filepath.VolumeName(s) != "",
		len(s) >= 2 && s[1] == ':':
		return "", fmt.Errorf("%q is absolute", s)
	case strings.HasPrefix(s, "~"):
		return "", fmt.Errorf("%q names a home directory", s)
	}
	clean := path.Clean(slashed)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%q %w", s, ErrOutside)
	}
	if err := ntfsSafe(clean); err != nil && runtime.GOOS == "windows" {
		return "", fmt.Errorf("%q %v", s, err)
	}
	return Rel(clean), nil
}

// ntfsSafe refuses, on Windows, what its file systems read as another
// name than the one written, as git's core.protectNTFS does: a stream
// (a:b), a name ending in a dot or a space ("x." is "x"), a device name
// (CON, NUL, COM1…), and a short name (GIT~1).
func ntfsSafe(rel string) error {
	for _, part := range strings.Split(rel, "/") {
		base, _, _ := strings.Cut(strings.ToUpper(part), ".")
		switch {
		case strings.ContainsAny(part, `:*?"<>|`):
			return errors.New("names a stream or a character Windows does not allow")
		case strings.HasSuffix(part, ".") && part != "." || strings.HasSuffix(part, " "):
			return errors.New("ends in a dot or a space, which Windows drops")
		case slices.Contains([]string{"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}, base),
			len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '0' && base[3] <= '9':
			return errors.New("names a Windows device")
		case strings.Contains(part, "~"):
			return errors.New("may be a Windows short name")
		}
	}
	return nil
}

// OpenIn opens rel inside project when it is a regular file, without
// blocking on a FIFO and refusing any link that leads out of project.
func OpenIn(project string, rel Rel) (*os.File, error) {
	name, err := checked(rel)
	if err != nil {
		return nil, err
	}
	if f, ok, err := openBeneath(project, name); ok {
		if err != nil {
			return nil, err
		}
		return regularOnly(f, string(rel))
	}
	var f *os.File
	err = inRoot(project, rel, func(root *os.Root, name string) (err error) {
		f, err = root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	return regularOnly(f, string(rel))
}

// ReadIn reads rel inside project (as OpenIn), refusing one larger than
// max bytes.
func ReadIn(project string, rel Rel, max int64) ([]byte, error) {
	f, err := OpenIn(project, rel)
	if err != nil {
		return nil, err
	}
	return readCapped(f, string(rel), max)
}

// StatIn is os.Stat of rel inside project, refusing a link that leads
// out of it.
func StatIn(project string, rel Rel) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := inRoot(project, rel, func(root *os.Root, name string) (err error) {
		fi, err = root.Stat(name)
		return err
	})
	return fi, err
}

// inRoot runs do on rel, checked again, under project opened as an
// os.Root, and names an escape as such.
func inRoot(project string, rel Rel, do func(root *os.Root, name string) error) error {
	name, err := checked(rel)
	if err != nil {
		return err
	}
	root, err := openRoot(project)
	if err != nil {
		return err
	}
	defer roots.done(project, root)
	return outside(rel, do(root, name))
}

// roots keeps each project's root open for the rest of a run once
// KeepRoots is called: a hook reads several files of one project, and on
// a slow file system every open of the root is one more wait.
var roots rootCache

type rootCache struct {
	sync.Mutex
	keep bool
	open map[string]*os.Root
}

// KeepRoots keeps the roots opened from now on for the life of the
// process: for a hook, which lives a moment and reads one project.
func KeepRoots() {
	roots.Lock()
	defer roots.Unlock()
	roots.keep = true
}

func keepingRoots() bool {
	roots.Lock()
	defer roots.Unlock()
	return roots.keep
}

func openRoot(project string) (*os.Root, error) {
	roots.Lock()
	defer roots.Unlock()
	if r, ok := roots.open[project]; ok {
		return r, nil
	}
	r, err := os.OpenRoot(project)
	if err == nil && roots.keep {
		if roots.open == nil {
			roots.open = map[string]*os.Root{}
		}
		roots.open[project] = r
	}
	return r, err
}

// done closes a root that is not kept.
func (c *rootCache) done(project string, r *os.Root) {
	c.Lock()
	defer c.Unlock()
	if c.open[project] != r {
		r.Close()
	}
}

// checked parses rel again: a Rel made by conversion, not ParseRel, must
// not get past the check.
func checked(rel Rel) (string, error) {
	clean, err := ParseRel(string(rel))
	return filepath.FromSlash(string(clean)), err
}

// outside names an escape as such; other errors (not found, above all)
// stay what they are.
func outside(rel Rel, err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return &fs.PathError{Op: "open", Path: string(rel), Err: ErrOutside}
	}
	return err
}
