package gitdiag

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// config holds the settings of the system, global and repository files,
// merged in git's order (later wins).
//
// The parser is git's own (config.c) transcribed: comments, quoting,
// escapes, continuation lines, "[section \"Sub\"]" and the older
// "[section.sub]", include.path. go-git's parser took 0.4 ms of package
// initialisation (it brings encoding/gob) in every run of the hook and knew
// neither includes nor some of git's spellings.
type config struct {
	values map[string]configValue // "core.excludesfile"; subsections keep their case: "branch.Main.remote"
	gitDir string                 // the repository's, for includeIf conditions
}

type configValue struct {
	text     string
	implicit bool // a name without "= value", which reads as true
}

func (c *config) get(key string) string { return c.values[strings.ToLower(key)].text }

// getSub reads a subsection key such as branch.<name>.remote, keeping the
// subsection's case.
func (c *config) getSub(section, sub, key string) string {
	return c.values[strings.ToLower(section)+"."+sub+"."+strings.ToLower(key)].text
}

// getBool reads a boolean as git does: a bare name is true; "true", "yes",
// "on" and "1" are true; "false", "no", "off", "0" and "" are false.
func (c *config) getBool(key string, def bool) bool {
	v, ok := c.values[strings.ToLower(key)]
	switch {
	case !ok:
		return def
	case v.implicit:
		return true
	}
	switch strings.ToLower(v.text) {
	case "true", "yes", "on", "1":
		return true
	case "false", "no", "off", "0", "":
		return false
	}
	return def
}

// loadConfig reads the system, global and repository files, then, when
// extensions.worktreeConfig is on, the work tree's own config.worktree
// (where git sparse-checkout writes its settings).
func loadConfig(commonDir, gitDir string) (*config, error) {
	c := &config{values: map[string]configValue{}, gitDir: gitDir}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		files = append(files, envOr("GIT_CONFIG_SYSTEM", "/etc/gitconfig"))
	}
	if global := os.Getenv("GIT_CONFIG_GLOBAL"); global != "" {
		files = append(files, global)
	} else {
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, filepath.Join(commonDir, "config"))
	for i, f := range files {
		if err := c.mergeFile(f, 0); err != nil && i == len(files)-1 {
			return nil, err
		}
	}
	if c.getBool("extensions.worktreeConfig", false) {
		if err := c.mergeFile(filepath.Join(gitDir, "config.worktree"), 0); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// maxIncludeDepth is git's limit on nested include.path files.
const maxIncludeDepth = 10

func (c *config) mergeFile(path string, depth int) error {
	b, err := readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	return c.merge(b, path, depth)
}

// merge adds one file's settings; path names it in errors and anchors its
// relative include paths.
func (c *config) merge(b []byte, path string, depth int) error {
	return parseConfig(b, func(key string, v configValue) error {
		c.values[key] = v
		if v.implicit || key != "include.path" && !c.includeIf(key, path) {
			return nil
		}
		if depth >= maxIncludeDepth {
			return fmt.Errorf("fatal: exceeded maximum include depth (%d) while including %s", maxIncludeDepth, v.text)
		}
		target := v.text
		if rest, ok := strings.CutPrefix(target, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil
			}
			target = filepath.Join(home, rest)
		} else if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		return c.mergeFile(target, depth+1) // a missing include is no error, as in git
	}, path)
}

// configParser walks one config file's bytes as git's get_next_char does:
// CRLF reads as LF, and the end of the file as a final LF.
type configParser struct {
	b    []byte
	pos  int
	line int
	eof  bool
}

func (p *configParser) next() byte {
	if p.pos >= len(p.b) {
		if !p.eof {
			p.eof = true
			p.line++
		}
		return '\n'
	}
	c := p.b[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.b) && p.b[p.pos] == '\n' {
		c = '\n'
		p.pos++
	}
	if c == '\n' {
		p.line++
	}
	return c
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isAlpha(c byte) bool   { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isKeyChar(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '-' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseConfig calls set for each variable of a config file, in order, and
// fails as git does: "bad config line N in file F".
func parseConfig(b []byte, set func(key string, v configValue) error, path string) error {
	p := &configParser{b: bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), line: 1}
	var section string // "core.", "branch.Main."
	comment := false
	for {
		c := p.next()
		switch {
		case c == '\n':
			if p.eof {
				return nil
			}
			comment = false
			continue
		case comment || isSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			name, ok := p.sectionName()
			if !ok || name == "" {
				return p.bad(path)
			}
			section = name + "."
			continue
		case !isAlpha(c):
			return p.bad(path)
		}
		name, v, ok := p.variable(c)
		if !ok {
			return p.bad(path)
		}
		if err := set(section+name, v); err != nil {
			return err
		}
	}
}

func (p *configParser) bad(path string) error {
	return fmt.Errorf("fatal: bad config line %d in file %s", p.line, path)
}

// sectionName reads what follows '[': "core]", "branch \"Main\"]" or the
// older "branch.main]" (all lower case).
func (p *configParser) sectionName() (string, bool) {
	var name []byte
	for {
		c := p.next()
		switch {
		case p.eof:
			return "", false
		case c == ']':
			return string(name), true
		case isSpace(c):
			return p.subsection(name, c)
		case !isKeyChar(c) && c != '.':
			return "", false
		}
		name = append(name, lower(c))
	}
}

func (p *configParser) subsection(name []byte, c byte) (string, bool) {
	// A line break inside the brackets is blamed on the line it ends, as
	// git does (error_incomplete_line).
	incomplete := func() (string, bool) { p.line--; return "", false }
	for isSpace(c) {
		if c == '\n' {
			return incomplete()
		}
		c = p.next()
	}
	if c != '"' {
		return "", false
	}
	name = append(name, '.')
	for {
		c := p.next()
		if c == '\n' {
			return incomplete()
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = p.next(); c == '\n' {
				return incomplete()
			}
		}
		name = append(name, c)
	}
	return string(name), p.next() == ']'
}

// variable reads a name (its first letter already read) and its value.
func (p *configParser) variable(first byte) (string, configValue, bool) {
	name := []byte{lower(first)}
	var c byte
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		name = append(name, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	if c == '\n' {
		return string(name), configValue{implicit: true}, true
	}
	if c != '=' {
		return "", configValue{}, false
	}
	v, ok := p.value()
	return string(name), configValue{text: v}, ok
}

// value reads a value to the end of its line: surrounding blanks dropped,
// inner ones kept, "..." quoting, \n \t \b \\ \" escapes, a backslash at
// the end of a line continuing it, and # or ; starting a comment.
func (p *configParser) value() (string, bool) {
	var v []byte
	quote, comment := false, false
	trim := 0
	for {
		c := p.next()
		switch {
		case c == '\n':
			if quote {
				p.line--
				return "", false
			}
			if trim > 0 {
				v = v[:trim]
			}
			return string(v), true
		case comment:
			continue
		case isSpace(c) && !quote:
			if trim == 0 {
				trim = len(v)
			}
			if len(v) > 0 {
				v = append(v, c)
			}
			continue
		case !quote && (c == ';' || c == '#'):
			comment = true
			continue
		}
		trim = 0
		switch c {
		case '\\':
			switch c = p.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
		case '"':
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// includeIf evaluates the condition of an includeIf.<condition>.path key
// as git does: gitdir: and gitdir/i: (the repository's git directory,
// matched with wildmatch), onbranch: (the checked-out branch). A
// hasconfig: condition is not evaluated, and includes nothing.
func (c *config) includeIf(key, configPath string) bool {
	rest, ok := strings.CutPrefix(key, "includeif.")
	cond, isPath := strings.CutSuffix(rest, ".path")
	if !ok || !isPath || c.gitDir == "" {
		return false
	}
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		return c.gitDirMatches(cond[len("gitdir:"):], false, configPath)
	case strings.HasPrefix(cond, "gitdir/i:"):
		return c.gitDirMatches(cond[len("gitdir/i:"):], true, configPath)
	case strings.HasPrefix(cond, "onbranch:"):
		return c.onBranch(cond[len("onbranch:"):])
	}
	return false
}

// gitDirMatches is git's include_by_gitdir: "~/" expanded, "./" relative
// to the config file's real directory (matched literally), any other
// relative pattern matched at any depth ("**/"), a trailing slash meaning
// everything below; tried against the real path of the git directory, then
// against its path as given.
func (c *config) gitDirMatches(pattern string, icase bool, configPath string) bool {
	if rest, ok := strings.CutPrefix(pattern, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		pattern = filepath.ToSlash(home) + "/" + rest
	}
	prefix := 0
	if strings.HasPrefix(pattern, "./") {
		real, err := filepath.EvalSymlinks(configPath)
		if err != nil {
			return false
		}
		dir := filepath.ToSlash(filepath.Dir(real))
		pattern = dir + pattern[1:]
		prefix = len(dir) + 1
	} else if !strings.HasPrefix(pattern, "/") {
		pattern = "**/" + pattern
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	texts := []string{}
	if real, err := filepath.EvalSymlinks(c.gitDir); err == nil {
		texts = append(texts, filepath.ToSlash(real))
	}
	if abs, err := filepath.Abs(c.gitDir); err == nil {
		texts = append(texts, filepath.ToSlash(abs))
	}
	for _, text := range texts {
		if len(text) < prefix {
			continue
		}
		head, want := text[:prefix], pattern[:prefix]
		if icase && !equalFoldASCII(head, want) || !icase && head != want {
			continue
		}
		match := wildmatch
		if icase {
			match = wildmatchFold
		}
		if match(pattern[prefix:], text[prefix:], true) {
			return true
		}
	}
	return false
}

// onBranch is git's include_by_branch: HEAD names a branch that matches
// the pattern (a trailing slash meaning every branch below).
func (c *config) onBranch(pattern string) bool {
	b, err := readFile(filepath.Join(c.gitDir, "HEAD"))
	if err != nil {
		return false
	}
	branch, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/")
	if !ok {
		return false
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	return wildmatch(pattern, branch, true)
}
