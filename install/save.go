package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/jsonedit"
	"github.com/session-hooks/session-hooks/internal/atomicfile"
	"github.com/session-hooks/session-hooks/internal/safefile"
)

// Save writes js in place of the settings file at path, as every client's
// install does: through the file's links (and its folders') only while
// they stay inside the fence, since a cloned repository's committed link
// must not make install write into any file the user can write; keeping
// the previous version (old, when the file existed) in the backups
// outside the repository, which it returns; with the file's permissions,
// perm for a new one; atomically and durably. The folders it makes, and
// a file it creates, are marked as install's, for uninstall to take back.
func Save(path string, f Fence, old []byte, existed bool, js []byte, perm fs.FileMode) (kept string, err error) {
	if real, ok := f.Allows(path); !ok {
		msg := fmt.Sprintf("%s leads to %s, outside %s; not writing through the link", path, real, f.Root)
		if f.Hint != "" {
			msg += " (" + f.Hint + ")"
		}
		return "", errors.New(msg)
	}
	target, err := WriteTarget(path)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
		if n := hardLinks(fi); n > 1 {
			return "", fmt.Errorf("%s has %d hard links: replacing it would leave the other names with the old settings; nothing written (make it a file of its own, or a symbolic link, and run install again)", target, n)
		}
	}
	if err := unchanged(target, old, existed); err != nil {
		return "", err
	}
	if err := makeDirs(filepath.Dir(target)); err != nil {
		return "", err
	}
	if existed {
		if kept, err = backup.Keep(target, old, perm); err != nil {
			return "", fmt.Errorf("cannot keep a backup (%v); nothing changed", err)
		}
	} else {
		backup.MarkCreated(target)
	}
	if err := atomicfile.Write(target, js, atomicfile.Options{Perm: perm, Durable: true}); err != nil {
		return "", fmt.Errorf("cannot write %s: %v", target, err)
	}
	return kept, nil
}

// unchanged says whether the file at target still holds what install read
// (old; nothing when it did not exist): a client saves its settings while
// install waits (on claude --version, on codex), and writing over that
// change would lose it. Checked again just before the rename.
func unchanged(target string, old []byte, existed bool) error {
	now, err := safefile.Read(target, 64<<20) // never blocks on a FIFO, bounded

	switch {
	case errors.Is(err, fs.ErrNotExist) && !existed:
		return nil
	case err == nil && existed && bytes.Equal(now, old):
		return nil
	}
	return fmt.Errorf("%s changed while install ran (another program saved it); nothing written: run install again", target)
}

// makeDirs makes dir and the folders above it that are missing, and
// marks each as made by install.
func makeDirs(dir string) error {
	var made []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) || d == filepath.Dir(d) {
			break
		}
		made = append(made, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range made {
		backup.MarkCreated(d)
	}
	return nil
}

// ShowChange is a dry run's report: the change to the file at path as a
// unified diff, and that nothing was written.
func ShowChange(out io.Writer, path string, old, js []byte) {
	fmt.Fprintf(out, "Would change %s (nothing written):\n%s", path, jsonedit.UnifiedDiff(path, old, js))
}
