package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/wildmatch"
)

// config holds the settings of the system, global and repository files,
// merged in git's order (later wins).
//
// The parser is git's own (config.c) transcribed: comments, quoting,
// escapes, continuation lines, "[section \"Sub\"]" and the older
// "[section.sub]", include.path. go-git's parser took 0.4 ms of package
// initialisation (it brings encoding/gob) in every run of the hook and knew
// neither includes nor some of git's spellings.
type Config struct {
	// Values are keyed "core.excludesfile"; subsections keep their case:
	// "branch.Main.remote".
	Values map[string]Value
	// all keeps every value of the keys git reads as lists and gitdiag
	// asks for (isList), in order; the other keys' last value is enough.
	all       map[string][]string
	gitDir    string // the repository's, for includeIf conditions
	commonDir string // where the repository's config file is
	read      func(string) ([]byte, error)

	// remoteURLs are the remote.<name>.url values of the whole
	// configuration, read on the first hasconfig:remote.*.url: condition.
	remoteURLs     []string
	remoteURLsRead bool
	// listingURLs marks the pass that reads them: every hasconfig:
	// condition holds in it, as in git's populate_remote_urls.
	listingURLs bool

	// confine says whether a path a repository's own file names may be
	// read (nil: any). NotFollowed lists the includes it refused, as
	// "include.path <value>".
	confine     func(path string) bool
	NotFollowed []string
}

// Value is one variable's value as written.
type Value struct {
	Text     string
	Implicit bool // a name without "= value", which reads as true
	// Repo says the repository's own files set it (its config,
	// config.worktree, what they include), not the user's or the
	// system's: a path it names is the repository's to name.
	Repo bool
}

// Get reads a key, "" when it is not set.
func (c *Config) Get(key string) string { return c.Values[strings.ToLower(key)].Text }

// GetSub reads a subsection key such as branch.<name>.remote, keeping the
// subsection's case.
func (c *Config) GetSub(section, sub, key string) string {
	return c.Values[strings.ToLower(section)+"."+sub+"."+strings.ToLower(key)].Text
}

// isList says whether key is one whose every value is kept: a remote's
// fetch refspecs.
func isList(key string) bool {
	return strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".fetch")
}

// GetAllSub reads every value of a subsection key, in the order the files
// give them: remote.<name>.fetch is a list.
func (c *Config) GetAllSub(section, sub, key string) []string {
	return c.all[strings.ToLower(section)+"."+sub+"."+strings.ToLower(key)]
}

// GetBool reads a boolean as git does: a bare name is true; "true", "yes",
// "on" and "1" are true; "false", "no", "off", "0" and "" are false.
func (c *Config) GetBool(key string, def bool) bool {
	v, ok := c.Values[strings.ToLower(key)]
	switch {
	case !ok:
		return def
	case v.Implicit:
		return true
	}
	switch strings.ToLower(v.Text) {
	case "true", "yes", "on", "1":
		return true
	case "false", "no", "off", "0", "":
		return false
	}
	return def
}

// Load reads the system, global and repository files, then, when
// extensions.worktreeConfig is on, the work tree's own config.worktree
// (where git sparse-checkout writes its settings). An include the
// repository's own files name is followed only where confine allows (nil:
// anywhere): a repository that arrives whole, .git and all, must not make
// us read the user's files.
func Load(commonDir, gitDir string, read func(string) ([]byte, error), confine func(string) bool) (*Config, error) {
	c := &Config{Values: map[string]Value{}, gitDir: gitDir, commonDir: commonDir, read: read, confine: confine}
	if err := c.load(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) load() error {
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
	for _, f := range files {
		c.mergeFile(f, 0, false, false) // the user's files: git warns and goes on
	}
	if err := c.mergeFile(filepath.Join(c.commonDir, "config"), 0, false, true); err != nil {
		return err
	}
	if c.GetBool("extensions.worktreeConfig", false) {
		return c.mergeFile(filepath.Join(c.gitDir, "config.worktree"), 0, false, true)
	}
	return nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// maxIncludeDepth is git's limit on nested include.path files.
const maxIncludeDepth = 10

// errURLInHasconfigInclude is git's answer to a file that a
// hasconfig:remote.*.url: condition includes and that sets a remote URL
// itself (which could change whether it is included).
var errURLInHasconfigInclude = errors.New("fatal: remote URLs cannot be configured in file directly or indirectly included by includeIf.hasconfig:remote.*.url")

// mergeFile adds the settings of the file at path. noURLs is set below an
// include made by a hasconfig: condition while the remote URLs are listed;
// repo when the repository's own files name it.
func (c *Config) mergeFile(path string, depth int, noURLs, repo bool) error {
	b, err := c.read(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	return c.merge(b, path, depth, noURLs, repo)
}

// merge adds one file's settings; path names it in errors and anchors its
// relative include paths.
func (c *Config) merge(b []byte, path string, depth int, noURLs, repo bool) error {
	return Parse(b, func(key string, v Value) error {
		v.Repo = repo
		c.Values[key] = v
		if isList(key) {
			if c.all == nil {
				c.all = map[string][]string{}
			}
			c.all[key] = append(c.all[key], v.Text)
		}
		if c.listingURLs && isRemoteURL(key) {
			if noURLs {
				return errURLInHasconfigInclude
			}
			if !v.Implicit {
				c.remoteURLs = append(c.remoteURLs, v.Text)
			}
		}
		if v.Implicit {
			return nil
		}
		if key != "include.path" {
			if ok, err := c.includeIf(key, path); !ok || err != nil {
				return err
			}
		}
		if depth >= maxIncludeDepth {
			return fmt.Errorf("fatal: exceeded maximum include depth (%d) while including %s", maxIncludeDepth, v.Text)
		}
		target := v.Text
		if rest, ok := strings.CutPrefix(target, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil
			}
			target = filepath.Join(home, rest)
		} else if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		if repo && c.confine != nil && !c.confine(target) {
			if !c.listingURLs {
				c.NotFollowed = append(c.NotFollowed, key+" "+v.Text)
			}
			return nil
		}
		noURLs := noURLs || c.listingURLs && strings.HasPrefix(key, "includeif.hasconfig:")
		return c.mergeFile(target, depth+1, noURLs, repo) // a missing include is no error, as in git
	}, path)
}

// isRemoteURL says whether key is remote.<name>.url.
func isRemoteURL(key string) bool {
	return strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".url") && len(key) > len("remote.url")
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

// Parse calls set for each variable of a config file, in order, and
// fails as git does: "bad config line N in file F".
func Parse(b []byte, set func(key string, v Value) error, path string) error {
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
func (p *configParser) variable(first byte) (string, Value, bool) {
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
		return string(name), Value{Implicit: true}, true
	}
	if c != '=' {
		return "", Value{}, false
	}
	v, ok := p.value()
	return string(name), Value{Text: v}, ok
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
// matched with wildmatch), onbranch: (the checked-out branch),
// hasconfig:remote.*.url: (a remote URL anywhere in the configuration).
// Other conditions are false, as in git.
func (c *Config) includeIf(key, configPath string) (bool, error) {
	rest, ok := strings.CutPrefix(key, "includeif.")
	cond, isPath := strings.CutSuffix(rest, ".path")
	if !ok || !isPath || c.gitDir == "" {
		return false, nil
	}
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		return c.gitDirMatches(cond[len("gitdir:"):], false, configPath), nil
	case strings.HasPrefix(cond, "gitdir/i:"):
		return c.gitDirMatches(cond[len("gitdir/i:"):], true, configPath), nil
	case strings.HasPrefix(cond, "onbranch:"):
		return c.onBranch(cond[len("onbranch:"):]), nil
	case strings.HasPrefix(cond, "hasconfig:remote.*.url:"):
		return c.hasRemoteURL(cond[len("hasconfig:remote.*.url:"):])
	}
	return false, nil
}

// hasRemoteURL is git's include_by_remote_url: some remote.<name>.url of
// the whole configuration (files read later included) matches the pattern,
// with wildmatch's WM_PATHNAME. The URLs are listed by a first pass over
// the configuration in which every hasconfig: condition holds, and which
// fails when a file included that way sets a remote URL.
func (c *Config) hasRemoteURL(pattern string) (bool, error) {
	if c.listingURLs {
		return true, nil
	}
	if !c.remoteURLsRead {
		pass := &Config{Values: map[string]Value{}, gitDir: c.gitDir, commonDir: c.commonDir, read: c.read, confine: c.confine, listingURLs: true}
		if err := pass.load(); err != nil {
			return false, err
		}
		c.remoteURLs, c.remoteURLsRead = pass.remoteURLs, true
	}
	for _, url := range c.remoteURLs {
		if wildmatch.Match(pattern, url, true) {
			return true, nil
		}
	}
	return false, nil
}

// gitDirMatches is git's include_by_gitdir: "~/" expanded, "./" relative
// to the config file's real directory (matched literally), any other
// relative pattern matched at any depth ("**/"), a trailing slash meaning
// everything below; tried against the real path of the git directory, then
// against its path as given.
func (c *Config) gitDirMatches(pattern string, icase bool, configPath string) bool {
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
		match := wildmatch.Match
		if icase {
			match = wildmatch.MatchFold
		}
		if match(pattern[prefix:], text[prefix:], true) {
			return true
		}
	}
	return false
}

// onBranch is git's include_by_branch: HEAD names a branch that matches
// the pattern (a trailing slash meaning every branch below).
func (c *Config) onBranch(pattern string) bool {
	b, err := c.read(filepath.Join(c.gitDir, "HEAD"))
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
	return wildmatch.Match(pattern, branch, true)
}

// New is an empty configuration, to fill with Parse.
func New() *Config { return &Config{Values: map[string]Value{}} }

// equalFoldASCII compares as git's strncasecmp does: ASCII letters only.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}
