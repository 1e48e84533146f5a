package ignore

import (
	"bytes"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/wildmatch"
)

// Rules is an ordered list of exclude patterns, lowest precedence
// first: core.excludesFile, .git/info/exclude, then .gitignore files from
// the top down. Each directory level appends to a copy, so siblings never
// see each other's patterns.
type Rules []Pattern

// Pattern is one line of an ignore file, parsed as git's dir.c
// (parse_path_pattern) does and matched with git's wildmatch. go-git's
// matcher, used before, differed from git on "foo/**" and brought a config
// parser and encoding/gob into every run.
type Pattern struct {
	pattern   string // without a leading '!' and a trailing '/'
	base      string // the directory of the ignore file: "" or "a/b/"
	literal   int    // length of the leading part without glob characters
	negative  bool   // "!pattern": re-includes
	mustBeDir bool   // "pattern/": directories only
	noDir     bool   // no '/' inside: matched against the base name at any depth
	endsWith  bool   // "*literal": a suffix test
	fold      bool   // core.ignoreCase: ASCII letters match in either case
}

// WithPatterns parses the content of an ignore file as git does: a BOM
// skipped, CR before LF dropped, blank lines and # comments ignored,
// trailing blanks dropped unless escaped. base is the directory holding
// the file ("" or "a/b"); fold is core.ignoreCase.
func (rules Rules) WithPatterns(b []byte, base string, fold bool) Rules {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if base != "" {
		base += "/"
	}
	out := rules[:len(rules):len(rules)] // appending must copy, never share
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i] // git reads each line as a C string
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if p, ok := ParsePattern(trimTrailingSpaces(string(line)), base, fold); ok {
			out = append(out, p)
		}
	}
	return out
}

// trimTrailingSpaces drops unescaped trailing spaces (dir.c's
// trim_trailing_spaces).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			fallthrough
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

func ParsePattern(s, base string, fold bool) (Pattern, bool) {
	p := Pattern{base: base, fold: fold}
	if strings.HasPrefix(s, "!") {
		p.negative, s = true, s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.mustBeDir, s = true, s[:len(s)-1]
	}
	if s == "" {
		return p, false
	}
	p.noDir = !strings.Contains(s, "/")
	p.literal = strings.IndexAny(s, "*?[\\")
	if p.literal < 0 {
		p.literal = len(s)
	}
	p.endsWith = s[0] == '*' && !strings.ContainsAny(s[1:], "*?[\\")
	p.pattern = s
	return p, true
}

// Matches reports whether the pattern matches path (slash-separated, from
// the top of the work tree; name is its last part), as dir.c's
// match_basename and match_pathname do.
func (p *Pattern) Matches(path, name string, isDir bool) bool {
	if p.mustBeDir && !isDir {
		return false
	}
	if p.noDir {
		switch {
		case p.literal == len(p.pattern):
			return p.equal(name, p.pattern)
		case p.endsWith:
			suffix := p.pattern[1:]
			return len(name) >= len(suffix) && p.equal(name[len(name)-len(suffix):], suffix)
		}
		return p.match(p.pattern, name, false)
	}
	pattern, literal := p.pattern, p.literal
	if pattern[0] == '/' {
		pattern, literal = pattern[1:], literal-1
	}
	if len(path) < len(p.base) || !p.equal(path[:len(p.base)], p.base) {
		return false
	}
	rel := path[len(p.base):]
	if literal > 0 {
		if literal > len(rel) || !p.equal(rel[:literal], pattern[:literal]) {
			return false
		}
		if literal == len(pattern) {
			return literal == len(rel)
		}
	}
	return p.match(pattern, rel, true)
}

// equal compares names as git's fspatheq: byte for byte, or ignoring
// ASCII case under core.ignoreCase.
func (p *Pattern) equal(a, b string) bool {
	if p.fold {
		return EqualFoldASCII(a, b)
	}
	return a == b
}

func (p *Pattern) match(pattern, text string, pathname bool) bool {
	if p.fold {
		return wildmatch.MatchFold(pattern, text, pathname)
	}
	return wildmatch.Match(pattern, text, pathname)
}

// EqualFoldASCII is strcasecmp's equality: only ASCII letters fold.
func EqualFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if wildmatch.FoldCase(a[i], true) != wildmatch.FoldCase(b[i], true) {
			return false
		}
	}
	return true
}

// Ignored reports whether the last pattern matching the entry name of the
// directory dir ("" or "a/b") excludes it.
func (rules Rules) Ignored(dir, name string, isDir bool) bool {
	path := ""
	for i := len(rules) - 1; i >= 0; i-- {
		r := &rules[i]
		if !r.noDir && path == "" {
			path = name
			if dir != "" {
				path = dir + "/" + name
			}
		}
		if r.Matches(path, name, isDir) {
			return !r.negative
		}
	}
	return false
}

// Negative says whether the pattern re-includes ("!pattern"), which
// .gitattributes does not allow.
func (p *Pattern) Negative() bool { return p.negative }

// String is the pattern as matched: without a leading '!' or a trailing
// '/'.
func (p *Pattern) String() string { return p.pattern }
