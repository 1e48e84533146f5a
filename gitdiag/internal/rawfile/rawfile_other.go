//go:build !unix

package rawfile

import (
	"io"
	"io/fs"
	"os"
)

// Open opens a file for reading.
func Open(path string) (*os.File, error) { return os.Open(path) }

// ReadFile is os.ReadFile for a regular file of at most MaxFile bytes.
func ReadFile(path string) ([]byte, error) { return ReadFileLimit(path, MaxFile) }

// ReadFileLimit is ReadFile refusing, by its size and before reading it, a
// file past max bytes.
func ReadFileLimit(path string, max int64) ([]byte, error) {
	max = min(max, MaxFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	case fi.Size() > max:
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return b, err
}

// OpenNoFollow is Open refusing, with ErrLink, a path that is itself a
// symbolic link.
func OpenNoFollow(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLink}
	}
	return os.Open(path)
}

// ReadFileNoFollow is ReadFile refusing a link as OpenNoFollow does.
func ReadFileNoFollow(path string) ([]byte, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLink}
	}
	return ReadFile(path)
}
