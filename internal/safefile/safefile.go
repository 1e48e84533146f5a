// Package safefile reads the files a repository or a payload names (the
// configuration, memory files, the feature list, the progress file, the
// transcript, task files) so that none can hang or exhaust the hook: a
// FIFO would block an open or a read forever, a symbolic link to
// /dev/zero would never end, a huge file would fill memory. It accepts
// regular files only, checked on the open file itself (so a file swapped
// for a FIFO between a stat and the open is caught), opens without
// blocking, and reads at most a cap.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is returned for a FIFO, a device, a directory, a socket.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading when it is a regular file (a symbolic link
// to one is followed), without blocking on a FIFO.
func Open(path string) (*os.File, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	return regularOnly(f, path)
}

// regularOnly is f when the open file is a regular file; else it is closed
// and the error names it by name. Checked on the open file, so one swapped
// for a FIFO after a check is caught.
func regularOnly(f *os.File, name string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is %w", name, ErrNotRegular)
	}
	return f, nil
}

// Read returns the content of the regular file at path, refusing one
// larger than max bytes.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	return readCapped(f, path, max)
}

// readCapped reads f whole and closes it, refusing more than max bytes.
func readCapped(f *os.File, name string, max int64) ([]byte, error) {
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is over %s", name, size(max))
	}
	return b, nil
}

func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
