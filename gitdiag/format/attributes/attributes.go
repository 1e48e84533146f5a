package attributes

import (
	"bytes"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/gitdiag/format/ignore"

	"github.com/session-hooks/session-hooks/gitdiag/format/quote"
)

// State is one attribute's setting: set ("text"), unset ("-text"),
// unspecified ("!text") or a value ("text=auto").
type State struct {
	Kind  byte // Set, Unset, Unspecified or Value
	Value string
}

// Kinds of State.
const (
	Set = iota + 1
	Unset
	Unspecified
	Valued
)

// attrAssign is one "name", "-name", "!name" or "name=value" of a line.
type attrAssign struct {
	name  string
	state State
}

// attrLine is one line of an attributes file: a pattern or, for
// "[attr]name ...", a macro, with what it assigns.
type attrLine struct {
	pattern ignore.Pattern
	macro   string
	assigns []attrAssign
}

// attrFrame is the lines of one attributes file; frames are chained from
// the lowest precedence (parent) up.
type attrFrame struct {
	parent *attrFrame
	lines  []attrLine
}

// builtinMacros is git's own "[attr]binary -diff -merge -text".
var builtinMacros = []attrLine{{macro: "binary", assigns: []attrAssign{
	{"diff", State{Kind: Unset}},
	{"merge", State{Kind: Unset}},
	{"text", State{Kind: Unset}},
}}}

// Stack finds the attributes of work tree paths for one repository. It is
// safe for the walk's goroutines.
type Stack struct {
	readDir func(dir string) ([]byte, bool) // a directory's .gitattributes, as git finds it
	fold    bool                            // core.ignoreCase
	base    *attrFrame                      // built-in, system, global: below the work tree's files
	info    *attrFrame                      // .git/info/attributes: above them
	mu      sync.Mutex                      // guards dirs
	dirs    map[string]*attrFrame           // "" or "a/b" → the chain up to that directory
}

// frame returns the chain of attribute files that applies in directory dir
// ("" or "a/b"), reading each directory's .gitattributes once. As git, it
// does not follow a .gitattributes that is a symbolic link, and reads the
// index's copy when the work tree has none it can read.
func (a *Stack) frame(dir string) *attrFrame {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.frameLocked(dir)
}

func (a *Stack) frameLocked(dir string) *attrFrame {
	if f, ok := a.dirs[dir]; ok {
		return f
	}
	parent := a.base
	if dir != "" {
		parent = a.frameLocked(parentDir(dir))
	}
	f := parent
	if b, ok := a.readDir(dir); ok {
		// Macros may only be defined at the top of the tree.
		f = &attrFrame{parent: parent, lines: parseAttributes(b, dir, dir == "", a.fold)}
	}
	a.dirs[dir] = f
	return f
}

// Lookup returns the settings of the attributes named in want for the
// file path (slash-separated, from the top of the work tree); an attribute
// no line mentions is missing from the map.
func (a *Stack) Lookup(path string, want ...string) map[string]State {
	frames := []*attrFrame{}
	if a.info != nil {
		frames = append(frames, a.info)
	}
	for f := a.frame(parentDir(path)); f != nil; f = f.parent {
		frames = append(frames, f)
	}
	macros := a.macrosFor(frames)
	name := path[strings.LastIndexByte(path, '/')+1:]
	found := map[string]State{}
	for _, f := range frames {
		for i := len(f.lines) - 1; i >= 0; i-- {
			l := &f.lines[i]
			if l.macro == "" && l.pattern.Matches(path, name, false) {
				fillAttributes(found, l.assigns, macros)
			}
		}
	}
	out := map[string]State{}
	for _, w := range want {
		if s, ok := found[w]; ok {
			out[w] = s
		}
	}
	return out
}

// macrosFor returns the macro definitions in frames, the one of the
// highest precedence winning, as git's determine_macros.
func (a *Stack) macrosFor(frames []*attrFrame) map[string][]attrAssign {
	macros := map[string][]attrAssign{}
	for _, f := range frames {
		for i := len(f.lines) - 1; i >= 0; i-- {
			l := &f.lines[i]
			if _, ok := macros[l.macro]; l.macro != "" && !ok {
				macros[l.macro] = l.assigns
			}
		}
	}
	return macros
}

// fillAttributes is git's fill_one: a line's assignments from the last,
// each only if no line of higher precedence set it; a macro set to true
// brings its own assignments, under the same rule.
func fillAttributes(found map[string]State, assigns []attrAssign, macros map[string][]attrAssign) {
	for i := len(assigns) - 1; i >= 0; i-- {
		as := assigns[i]
		if _, known := found[as.name]; known {
			continue
		}
		found[as.name] = as.state
		if m, ok := macros[as.name]; ok && as.state.Kind == Set {
			fillAttributes(found, m, macros)
		}
	}
}

// parseAttributes reads an attributes file found in directory dir, as
// git's parse_attr_line: a line is a pattern (C-quoted if it starts with a
// double quote) then assignments, separated by blanks; a line with an
// invalid attribute name, a negative pattern or an unallowed macro is
// dropped whole, as git drops it (with a warning).
func parseAttributes(b []byte, dir string, macrosAllowed, fold bool) []attrLine {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	base := dir
	if base != "" {
		base += "/"
	}
	var lines []attrLine
	for len(b) > 0 {
		var raw []byte
		raw, b, _ = bytes.Cut(b, []byte("\n"))
		if i := bytes.IndexByte(raw, 0); i >= 0 {
			raw = raw[:i]
		}
		if l, ok := parseAttrLine(string(raw), base, macrosAllowed, fold); ok {
			lines = append(lines, l)
		}
	}
	return lines
}

const attrBlank = " \t\r\n"

// maxAttrLine is git's ATTR_MAX_LINE_LENGTH.
const maxAttrLine = 2048

func parseAttrLine(line, base string, macrosAllowed, fold bool) (attrLine, bool) {
	s := strings.TrimLeft(line, attrBlank)
	if s == "" || s[0] == '#' || len(line) >= maxAttrLine {
		return attrLine{}, false
	}
	n := blankIndex(s)
	name, rest := s[:n], s[n:]
	if s[0] == '"' {
		if unq, n, ok := quote.Unquote(s); ok { // a bad quote reads as a plain word
			name, rest = unq, s[n:]
		}
	}
	var l attrLine
	if macro, ok := strings.CutPrefix(name, "[attr]"); ok && macro != "" {
		if !macrosAllowed {
			return l, false
		}
		if !validAttrName(macro) {
			return l, false
		}
		l.macro = macro
	} else {
		p, ok := ignore.ParsePattern(name, base, fold)
		if !ok || p.Negative() {
			return l, false
		}
		l.pattern = p
	}
	for rest = strings.TrimLeft(rest, attrBlank); rest != ""; rest = strings.TrimLeft(rest, attrBlank) {
		n := blankIndex(rest)
		a, ok := parseAttrAssign(rest[:n])
		if !ok {
			return attrLine{}, false
		}
		l.assigns = append(l.assigns, a)
		rest = rest[n:]
	}
	return l, true
}

func blankIndex(s string) int {
	if n := strings.IndexAny(s, attrBlank); n >= 0 {
		return n
	}
	return len(s)
}

// parseAttrAssign is git's parse_attr.
func parseAttrAssign(tok string) (attrAssign, bool) {
	var a attrAssign
	name, value, hasValue := strings.Cut(tok, "=")
	switch {
	case strings.HasPrefix(name, "-"):
		a.state.Kind, name = Unset, name[1:]
	case strings.HasPrefix(name, "!"):
		a.state.Kind, name = Unspecified, name[1:]
	case hasValue:
		a.state = State{Kind: Valued, Value: value}
	default:
		a.state.Kind = Set
	}
	a.name = name
	return a, validAttrName(name) && !strings.HasPrefix(name, "builtin_")
}

// validAttrName is git's attr_name_valid: letters, digits, '-', '_' and
// '.', not starting with '-'.
func validAttrName(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// New makes the stack of a repository: the built-in macros, then base
// (the system and global files' contents, lowest precedence first), the
// work tree's .gitattributes as readDir finds them from the top down, and
// info (.git/info/attributes) last; fold is core.ignoreCase.
func New(base [][]byte, info []byte, readDir func(dir string) ([]byte, bool), fold bool) *Stack {
	a := &Stack{readDir: readDir, fold: fold, dirs: map[string]*attrFrame{}}
	a.base = &attrFrame{lines: builtinMacros}
	for _, b := range base {
		a.base = &attrFrame{parent: a.base, lines: parseAttributes(b, "", true, fold)}
	}
	if info != nil {
		a.info = &attrFrame{lines: parseAttributes(info, "", true, fold)}
	}
	return a
}

// parentDir is the directory of a slash-separated path, "" at the top.
func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
