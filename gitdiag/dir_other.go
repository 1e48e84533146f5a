//go:build !linux

package gitdiag

import (
	"io/fs"
	"os"
	"path/filepath"
)

// dirHandle is an open directory, read through the os package where no
// faster system interface is wired.
type dirHandle struct {
	path string
}

func openDir(path string) (*dirHandle, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrInvalid}
	}
	return &dirHandle{path: path}, nil
}

// openAt opens a subdirectory by its path.
func (d *dirHandle) openAt(name string) (*dirHandle, error) {
	return openDir(filepath.Join(d.path, name))
}

// readFile reads a small file of the directory, such as its .gitignore.
func (d *dirHandle) readFile(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(d.path, name))
}

func (d *dirHandle) close() {}

// under is the directory at path (relative to the top of the work tree,
// "" for the top) below root.
func under(root *dirHandle, path string) *dirHandle {
	return &dirHandle{path: filepath.Join(root.path, filepath.FromSlash(path))}
}

// stat is lstat(2) of the directory itself.
func (d *dirHandle) stat() (fileStat, error) {
	return (&dirHandle{path: filepath.Dir(d.path)}).lstat(filepath.Base(d.path))
}

func (d *dirHandle) list() ([]dirEntry, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(entries))
	for i, e := range entries {
		out[i] = dirEntry{name: e.Name(), kind: modeKind(e.Type())}
	}
	return out, nil
}

func modeKind(m fs.FileMode) entryKind {
	switch {
	case m.IsRegular():
		return kindFile
	case m.IsDir():
		return kindDir
	case m&fs.ModeSymlink != 0:
		return kindSymlink
	}
	return kindOther
}

func (d *dirHandle) lstat(name string) (fileStat, error) {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if err != nil {
		return fileStat{}, err
	}
	mt := fi.ModTime()
	st := fileStat{kind: modeKind(fi.Mode()), exec: fi.Mode()&0o100 != 0, size: fi.Size(),
		mtimeSec: mt.Unix(), mtimeNsec: int64(mt.Nanosecond())}
	if sd := statOf(fi); sd.known {
		st.ctimeSec, st.ctimeNsec = sd.ctime.Unix(), int64(sd.ctime.Nanosecond())
		st.ino, st.uid, st.gid, st.full = uint64(sd.ino), sd.uid, sd.gid, true
	}
	return st, nil
}
