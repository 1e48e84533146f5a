package gitdiag

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreRules is an ordered list of exclude patterns, lowest precedence
// first: core.excludesFile, .git/info/exclude, then .gitignore files from
// the top down. Each directory level appends to a copy, so siblings never
// see each other's patterns.
type ignoreRules []gitignore.Pattern

// baseIgnore returns the patterns that apply everywhere in the work tree.
func (r *Repo) baseIgnore() ignoreRules {
	var rules ignoreRules
	global := r.cfg.get("core.excludesFile")
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
	if global != "" {
		rules = rules.withFile(global, nil)
	}
	return rules.withFile(filepath.Join(r.CommonDir, "info", "exclude"), nil)
}

// withFile returns rules plus the patterns of one ignore file, whose
// patterns are relative to domain (the directory holding it).
func (rules ignoreRules) withFile(path string, domain []string) ignoreRules {
	b, err := readFile(path)
	if err != nil || len(b) == 0 {
		return rules
	}
	return rules.withPatterns(b, domain)
}

// withPatterns parses the content of an ignore file as git does: a BOM
// skipped, CR before LF dropped, blank lines and # comments ignored.
func (rules ignoreRules) withPatterns(b []byte, domain []string) ignoreRules {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	out := rules[:len(rules):len(rules)] // appending must copy, never share
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		// git spells a negated class [!x]; filepath.Match only knows [^x].
		line = strings.ReplaceAll(line, "[!", "[^")
		if strings.TrimRight(line, " ") == "" {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// ignored reports whether the last pattern matching path excludes it.
func (rules ignoreRules) ignored(path []string, isDir bool) bool {
	for i := len(rules) - 1; i >= 0; i-- {
		switch rules[i].Match(path, isDir) {
		case gitignore.Exclude:
			return true
		case gitignore.Include:
			return false
		}
	}
	return false
}
