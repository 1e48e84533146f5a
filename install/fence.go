package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Fence is the directory a settings write stays in unless the person
// said otherwise: the project for a project's settings, the client's
// configuration directory for the user's.
type Fence struct {
	Root   string
	Follow bool   // --follow-symlinks: anywhere a link leads
	Hint   string // how to write through a refused link anyway, where a flag can
}

// Allows says whether the file path really is (its links and those of
// its directories followed) stays inside the fence.
func (f Fence) Allows(path string) (string, bool) {
	real := RealPath(path)
	if f.Follow || f.Root == "" {
		return real, true
	}
	root := RealPath(f.Root)
	return real, real == root || strings.HasPrefix(real, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// RealPath is path with every link resolved, as far as it exists.
func RealPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir, base := filepath.Split(abs)
	if dir = filepath.Clean(dir); dir == abs {
		return abs
	}
	return filepath.Join(RealPath(dir), base)
}

// WriteTarget is the file a write of path replaces: path, or the file its
// symbolic links lead to. A read-only file is refused rather than
// replaced (a rename would succeed over it), as is anything but a file.
func WriteTarget(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	} else if err != nil {
		return "", err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", fmt.Errorf("%s is a symbolic link to a missing file; create its target or remove the link", path)
		}
		if fi, err = os.Stat(target); err != nil {
			return "", err
		}
	}
	switch {
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file; not replacing it", target)
	case fi.Mode().Perm()&0o222 == 0:
		return "", fmt.Errorf("%s is read-only; make it writable (chmod u+w) to change it", target)
	}
	return target, nil
}
