package gitdiag

import (
	"strconv"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag/format/quote"
)

// Short formats s as `git status --short` run from the directory prefix
// ("" or "sub/dir/"): paths relative to it, quoted as git quotes them.
func (s *Status) Short(prefix string) []string {
	out := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		line := string([]byte{f.X, f.Y}) + " "
		if f.From != "" {
			line += quote.Path(relativePath(f.From, prefix), true, !s.rawNonASCII) + " -> "
		}
		out = append(out, line+quote.Path(relativePath(f.Path, prefix), true, !s.rawNonASCII))
	}
	return out
}

// NamesAgainstHEAD formats the paths `git diff --name-only HEAD` lists.
func (s *Status) NamesAgainstHEAD() []string {
	if s.diffNames == nil {
		return nil
	}
	var out []string
	for _, p := range s.diffNames() {
		out = append(out, quote.Path(p, false, !s.rawNonASCII))
	}
	return out
}

// UntrackedNames formats the paths `git ls-files --others --exclude-standard
// --directory --no-empty-directory` lists from the top: untracked files, and
// a directory holding only untracked files as "dir/", as the status shows
// them. With NamesAgainstHEAD, they are everything uncommitted.
func (s *Status) UntrackedNames() []string {
	var out []string
	for _, f := range s.Files {
		if f.X == '?' {
			out = append(out, quote.Path(f.Path, false, !s.rawNonASCII))
		}
	}
	return out
}

// relativePath is git's relative_path: p as seen from the directory prefix.
func relativePath(p, prefix string) string {
	if prefix == "" {
		return p
	}
	if strings.HasPrefix(p, prefix) && len(p) > len(prefix) {
		return p[len(prefix):]
	}
	dirs := splitPath(strings.TrimSuffix(prefix, "/"))
	parts := splitPath(strings.TrimSuffix(p, "/"))
	common := 0
	for common < len(dirs) && common < len(parts)-1 && dirs[common] == parts[common] {
		common++
	}
	rel := strings.Repeat("../", len(dirs)-common) + strings.Join(parts[common:], "/")
	if strings.HasSuffix(p, "/") {
		rel += "/"
	}
	if rel == "" || rel == "/" {
		return "./"
	}
	return rel
}

func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}
