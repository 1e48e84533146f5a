package gitdiag

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Short formats s as `git status --short` run from the directory prefix
// ("" or "sub/dir/"): paths relative to it, quoted as git quotes them.
func (s *Status) Short(prefix string) []string {
	out := make([]string, 0, len(s.Files))
	for _, f := range s.Files {
		line := string([]byte{f.X, f.Y}) + " "
		if f.From != "" {
			line += quotePath(relativePath(f.From, prefix), true) + " -> "
		}
		out = append(out, line+quotePath(relativePath(f.Path, prefix), true))
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
		out = append(out, quotePath(p, false))
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

// quotePath is git's quote_c_style with core.quotePath=true: names with
// control characters, quotes, backslashes or non-ASCII bytes are written as
// C strings. `git status --short` also quotes names containing spaces.
func quotePath(p string, quoteSpace bool) string {
	needs := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || (quoteSpace && c == ' ') {
			needs = true
			break
		}
	}
	if !needs {
		return p
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case '\a':
			sb.WriteString(`\a`)
		case '\b':
			sb.WriteString(`\b`)
		case '\t':
			sb.WriteString(`\t`)
		case '\n':
			sb.WriteString(`\n`)
		case '\v':
			sb.WriteString(`\v`)
		case '\f':
			sb.WriteString(`\f`)
		case '\r':
			sb.WriteString(`\r`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&sb, `\%03o`, c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
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
