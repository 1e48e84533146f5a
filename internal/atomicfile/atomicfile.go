// Package atomicfile replaces files atomically: the content goes to a
// temporary file beside the target, which is then renamed over it, so a
// reader or a parallel writer sees the old file or the new one, never a
// torn one, and a failed write (a full disk) leaves the old file as it was.
// It is the one writer of the project: logs, state and settings files all
// go through it.
package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
var WriteData = writeData

func writeData(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}

// Write replaces path with content. The rename replaces a symbolic link
// at path rather than following it: callers that mean to write through a
// link resolve it first.
func Write(path string, content []byte, opt Options) error {
	dir, prefix, now := filepath.Dir(path), TempPrefix(filepath.Base(path)), time.Now()
	tmp, busy, err := createTemp(dir, prefix, now)
	if err != nil {
		return err
	}
	if busy {
		// The first slot was taken: a writer beside us, or one killed
		// mid-write. Whatever else such writers left is swept now.
		defer sweep(dir, prefix, now)
	}
	err = WriteData(tmp, content)
	if err == nil {
		err = tmp.Chmod(opt.Perm)
	}
	if err == nil && opt.Durable {
		err = syncWithin(tmp, SyncBudget)
	}
	ours := true
	if err == nil {
		err = stillNamed(tmp)
		ours = err == nil
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil && ours {
		os.Remove(tmp.Name()) // not when the name is another writer's now
	}
	return err
}

// StaleAfter is how old a temporary file must be before a later write
// takes it back: one a run killed mid-write left behind. A parallel
// writer's own is seconds old (a hook's deadline is ten seconds at most
// unless --timeout says more; stillNamed guards a writer slower still).
const StaleAfter = time.Minute

// tempSlots is how many temporary names a file's writes take, each one
// writer's at a time, before names of chance (more writers of one file at
// once than that is not seen: a session's hooks rarely run two at once).
//
// A slot a killed run left is taken back by a later write of the file
// once it is StaleAfter old. Names of chance were found only by listing
// the directory, and .claude/logs/state holds two files for every session
// the project has had: the listing grew with them, at every write of a
// session's state.
const tempSlots = 4

// createTemp creates the temporary file for a write of a file in dir:
// the first free slot, else a stale one taken back, else a name of
// chance; busy says the first slot was taken.
func createTemp(dir, prefix string, now time.Time) (f *os.File, busy bool, err error) {
	for i := range tempSlots {
		name := filepath.Join(dir, prefix+strconv.Itoa(i))
		f, err := openExclusive(name)
		if !errors.Is(err, fs.ErrExist) {
			return f, i > 0, err
		}
		if stale(name, now) {
			os.Remove(name)
			if f, err := openExclusive(name); err == nil {
				return f, true, nil
			}
		}
	}
	for range 10000 {
		f, err := openExclusive(filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)))
		if !errors.Is(err, fs.ErrExist) {
			return f, true, err
		}
	}
	return nil, true, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"), Err: os.ErrExist}
}

// stale says whether the temporary file at name was left by a write
// killed StaleAfter ago or more.
func stale(name string, now time.Time) bool {
	fi, err := os.Lstat(name)
	return err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > StaleAfter
}

// sweep removes the stale temporary files of a file's writes: every slot,
// and, when another slot than the first was taken too (writers past the
// slots use names of chance), the names of chance found in a listing of
// dir. It runs only after a write found its first slot taken, so the usual
// write pays nothing for it, and the listing only after several writers.
func sweep(dir, prefix string, now time.Time) {
	crowded := false
	for i := range tempSlots {
		name := filepath.Join(dir, prefix+strconv.Itoa(i))
		if _, err := os.Lstat(name); err == nil && i > 0 {
			crowded = true
		}
		if stale(name, now) {
			os.Remove(name)
		}
	}
	if !crowded {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if _, err := strconv.ParseUint(rest, 10, 32); ok && err == nil && stale(filepath.Join(dir, e.Name()), now) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// stillNamed says whether f's name is still f: a write stalled past
// StaleAfter may have had its slot taken back and reused, and renaming
// it then would put another writer's unfinished file in place.
func stillNamed(f *os.File) error {
	own, err := f.Stat()
	if err != nil {
		return err
	}
	named, err := os.Lstat(f.Name())
	if err != nil {
		return err
	}
	if !os.SameFile(own, named) {
		return &os.PathError{Op: "rename", Path: f.Name(), Err: errors.New("the temporary file was taken back by another write")}
	}
	return nil
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
