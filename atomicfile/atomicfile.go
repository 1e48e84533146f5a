// Package atomicfile replaces files atomically: the content goes to a
// temporary file beside the target, which is then renamed over it, so a
// reader or a parallel writer sees the old file or the new one, never a
// torn one, and a failed write (a full disk) leaves the old file as it was.
// It is the one writer of the project: logs, state and settings files all
// go through it.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Options say how a file is written.
type Options struct {
	Perm fs.FileMode // the new file's permissions
	// Durable flushes the content to disk before the rename, waiting at
	// most SyncBudget: for a file whose loss would cost the user work.
	Durable bool
}

// SyncBudget is how long a durable write waits for the disk. A hook's
// output matters more than its log's durability: on a disk busy with
// writeback, fsync has taken a second here, which would cost the session
// its context.
const SyncBudget = 100 * time.Millisecond

// WriteData is the one write of a file's content; tests replace it to fail
// as a full disk does.
var WriteData = func(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}

// Write replaces path with content. The rename replaces a symbolic link
// at path rather than following it: callers that mean to write through a
// link resolve it first.
func Write(path string, content []byte, opt Options) error {
	tmp, err := createTemp(filepath.Dir(path), TempPrefix(filepath.Base(path)))
	if err != nil {
		return err
	}
	err = WriteData(tmp, content)
	if err == nil {
		err = tmp.Chmod(opt.Perm)
	}
	if err == nil && opt.Durable {
		err = syncWithin(tmp, SyncBudget)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	var prev os.FileInfo
	lerr := err
	if err == nil {
		prev, lerr = os.Lstat(path)
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if now := time.Now(); lerr != nil || now.Sub(prev.ModTime()) > StaleAfter {
		removeStale(path, now)
	}
	return nil
}

// StaleAfter is how old a temporary file must be before a later write
// removes it: one a run killed mid-write left behind. A parallel writer's
// own is seconds old at most.
const StaleAfter = time.Minute

// removeStale removes the temporary files of path that a killed run left.
// Write asks only when path was last written more than StaleAfter ago
// (or is new): a temporary file left by a run killed since then cannot be
// stale yet, and listing the directory at every write was a third of a
// small log write's cost. A leftover is removed by the first write that
// comes StaleAfter after the one before it.
func removeStale(path string, now time.Time) {
	names, err := filepath.Glob(filepath.Join(filepath.Dir(path), TempPrefix(filepath.Base(path))+"*"))
	if err != nil {
		return
	}
	for _, n := range names {
		if fi, err := os.Lstat(n); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > StaleAfter {
			os.Remove(n)
		}
	}
}

// TempPrefix starts the name of the temporary file written for name: a
// dot file, so that listings of logs and checkpoints skip it.
func TempPrefix(name string) string { return "." + name + ".tmp-" }

// syncWithin flushes f to disk, or gives up waiting after d: the rename
// that follows replaces the file atomically either way; only surviving a
// crash in that instant is given up.
func syncWithin(f *os.File, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- f.Sync() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return nil
	}
}
