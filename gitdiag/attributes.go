package gitdiag

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"
)

// newAttributes is the attribute stack of the repository; fromIndex reads
// the index's copy of a file, for a directory whose .gitattributes the work
// tree lacks.
func (r *Repo) newAttributes(fromIndex func(path string) ([]byte, bool)) *attributes.Stack {
	var files []string
	if os.Getenv("GIT_ATTR_NOSYSTEM") == "" {
		files = append(files, "/etc/gitattributes")
	}
	if global := r.globalAttributesFile(); global != "" {
		files = append(files, global)
	}
	var base [][]byte
	for _, f := range files {
		if b, err := readFile(f); err == nil {
			base = append(base, b)
		}
	}
	info, _ := readFile(filepath.Join(r.CommonDir, "info", "attributes"))
	root := r.Root
	readDir := func(dir string) ([]byte, bool) {
		if root == "" {
			return nil, false // a bare repository: git reads no tree's files
		}
		path := filepath.Join(root, filepath.FromSlash(dir), ".gitattributes")
		// As git, a .gitattributes that is a symbolic link is not followed.
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
			if b, err := readFile(path); err == nil {
				return b, true
			}
		}
		return fromIndex(joinPath(dir, ".gitattributes"))
	}
	return attributes.New(base, info, readDir, r.ignoreCase())
}

// globalAttributesFile is core.attributesFile, by default
// $XDG_CONFIG_HOME/git/attributes.
func (r *Repo) globalAttributesFile() string {
	f := r.cfg.Get("core.attributesFile")
	if f == "" {
		if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
			return filepath.Join(xdg, "git", "attributes")
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		return filepath.Join(home, ".config", "git", "attributes")
	}
	if rest, ok := strings.CutPrefix(f, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			f = filepath.Join(home, rest)
		}
	}
	return r.confined("core.attributesFile", f)
}
