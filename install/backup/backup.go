// Package backup keeps a settings file's previous version outside any
// repository, and the mark of a file (or folder) an install created, so
// that every agent's uninstall removes what its install created and what
// now holds nothing.
package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/internal/atomicfile"
)

// A settings file's previous version is kept outside any repository: a
// settings.json.bak beside .claude/settings.json is one `git add .` away
// from being committed with whatever the file held. It goes to
// session-hooks/backups/<file's name>-<hash of its path>/ in the user's
// cache directory, with a mark when install created the file, so that
// uninstall can remove a file that holds nothing but what it added.

// dirOf is where the backups of the settings file target live.
func dirOf(target string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	name := filepath.Base(filepath.Dir(filepath.Dir(abs))) + "-" + filepath.Base(abs)
	return filepath.Join(cache, "session-hooks", "backups", name+"-"+hex.EncodeToString(sum[:6])), nil
}

// Keep saves the previous version of target and says where.
func Keep(target string, old []byte, mode fs.FileMode) (string, error) {
	dir, err := dirOf(target)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	p := filepath.Join(dir, filepath.Base(target)+".bak")
	return p, atomicfile.Write(p, old, atomicfile.Options{Perm: mode &^ 0o077, Durable: true})
}

const createdMark = "created-by-install"

// MarkCreated records that an install created target (a settings file, or
// the folder it made for one); CreatedByInstall says so, and UnmarkCreated
// forgets it. Each agent's uninstall removes what its install created and
// what now holds nothing.
func MarkCreated(target string) {
	if dir, err := dirOf(target); err == nil && os.MkdirAll(dir, 0o700) == nil {
		os.WriteFile(filepath.Join(dir, createdMark), []byte(target+"\n"), 0o600)
	}
}

func CreatedByInstall(target string) bool {
	dir, err := dirOf(target)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, createdMark))
	return err == nil
}

func UnmarkCreated(target string) {
	if dir, err := dirOf(target); err == nil {
		if err := os.Remove(filepath.Join(dir, createdMark)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
}

// RemoveCreated removes the settings file at path when an install created
// it and js, what would be written back, holds nothing; it says whether
// it did. (Claude Code's uninstall checks its fence first, and removes
// through a link's target.)
func RemoveCreated(path string, js []byte) (bool, error) {
	if !HoldsNothing(js) || !CreatedByInstall(path) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	UnmarkCreated(path)
	return true, nil
}

// HoldsNothing says whether settings hold nothing but an empty hooks
// object (what uninstall leaves of a file install created).
func HoldsNothing(js []byte) bool {
	compact := strings.Join(strings.Fields(string(js)), "")
	return compact == "{}" || compact == `{"hooks":{}}` || compact == ""
}
