package rawfile

import (
	"errors"
	"io"
	"os"
)

// Mapped is a file read at offsets: mapped into memory where the system
// allows it, so that the many small reads of a pack (an entry header, a
// delta base, an index probe) cost no system call; read with pread
// otherwise.
type Mapped interface {
	io.ReaderAt
	io.Closer
	// Bytes is the whole file in memory, or nil when it is read with pread.
	Bytes() []byte
	// Unmapped reads the file with pread even when it is mapped: what it
	// reads is copied, and the pages it comes from are not mapped into the
	// process (nor counted in its resident memory).
	Unmapped() io.ReaderAt
}

// OpenMapped opens path for reading at offsets.
func OpenMapped(path string) (Mapped, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	if m := mapFile(f); m != nil {
		return m, nil
	}
	return preadFile{f}, nil
}

// preadFile is a file read with pread.
type preadFile struct{ *os.File }

func (preadFile) Bytes() []byte { return nil }

func (p preadFile) Unmapped() io.ReaderAt { return p.File }

// region is a read-only mapping of a whole file. Reads never go past its
// length (a page past the end of a file faults), and git never changes a
// pack or its index in place: a gc writes new files and deletes the old
// ones, whose mapping stays valid.
type region struct {
	b []byte
	f *os.File // for Unmapped
}

func (r *region) Bytes() []byte { return r.b }

func (r *region) Unmapped() io.ReaderAt { return r.f }

func (r *region) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// MaxFile bounds a file read whole: above git's own 100 MB limit on
// attributes and ignore files, far above any HEAD, ref, config or index
// git writes for a repository a hook can serve within its deadline.
const MaxFile = 256 << 20

// ErrNotRegular is a device, a FIFO or a directory where git expects a
// file.
var ErrNotRegular = errors.New("not a regular file")

// ErrLink is a symbolic link where OpenNoFollow was asked to open a file.
var ErrLink = errors.New("a symbolic link")

// ErrTooLarge is a file past MaxFile.
var ErrTooLarge = errors.New("file too large")
