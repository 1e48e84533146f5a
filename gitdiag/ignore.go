package gitdiag

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/ignore"
)

// ignoreFile is an ignore file that applies to the whole work tree, as
// read: present says it exists.
type ignoreFile struct {
	content []byte
	present bool
}

// baseIgnoreFiles reads core.excludesFile (or its default) and
// $GIT_DIR/info/exclude, once per status: their patterns apply everywhere,
// and the untracked cache records their ids.
func (r *Repo) baseIgnoreFiles() (global, info ignoreFile) {
	read := func(path string) ignoreFile {
		if path == "" {
			return ignoreFile{}
		}
		b, err := readFile(path)
		return ignoreFile{b, err == nil}
	}
	globalPath, infoPath := r.ignoreFiles()
	return read(globalPath), read(infoPath)
}

// baseIgnore returns the patterns that apply everywhere in the work tree.
func baseIgnore(global, info ignoreFile, fold bool) ignore.Rules {
	var rules ignore.Rules
	for _, f := range []ignoreFile{global, info} {
		if len(f.content) > 0 {
			rules = rules.WithPatterns(f.content, "", fold)
		}
	}
	return rules
}

// ignoreFiles are the paths of core.excludesFile (or its default) and
// $GIT_DIR/info/exclude.
func (r *Repo) ignoreFiles() (global, info string) {
	global = r.cfg.Get("core.excludesFile")
	if global == "" {
		if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
			global = filepath.Join(xdg, "git", "ignore")
		} else if home, err := os.UserHomeDir(); err == nil {
			global = filepath.Join(home, ".config", "git", "ignore")
		}
	} else if rest, ok := strings.CutPrefix(global, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			global = filepath.Join(home, rest)
		}
	}
	return r.confined("core.excludesFile", global), filepath.Join(r.CommonDir, "info", "exclude")
}

// ignoreCase is core.ignoreCase, which git sets on case-insensitive file
// systems (macOS, Windows): names then match patterns and the index in
// either case.
func (r *Repo) ignoreCase() bool { return r.cfg.GetBool("core.ignoreCase", false) }
