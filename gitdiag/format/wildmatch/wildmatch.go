package wildmatch

import "strings"

// Match is git's wildmatch(): with pathname set (WM_PATHNAME), '*' and '?' do not match '/', and "**"
// between slashes matches any number of directories.
func Match(pattern, text string, pathname bool) bool {
	return dowild(pattern, 0, text, 0, wmFlags{pathname: pathname}) == wmMatch
}

// MatchFold is Match with WM_CASEFOLD (core.ignoreCase): ASCII
// letters match in either case, with git's exceptions (an escaped
// upper-case letter, or one alone in brackets, matches neither case).
func MatchFold(pattern, text string, pathname bool) bool {
	return dowild(pattern, 0, text, 0, wmFlags{pathname: pathname, fold: true}) == wmMatch
}

// wmFlags are wildmatch.c's WM_PATHNAME and WM_CASEFOLD.
type wmFlags struct{ pathname, fold bool }

// FoldCase lowers an ASCII upper-case letter when fold is set.
func FoldCase(c byte, fold bool) byte {
	if fold && c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1
	wmAbortToStarStar = -2
	starGoOn          = 2 // star: not decided, the main loop goes on
)

// at reads s[i] as C reads a NUL-terminated string: 0 past the end.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

func dowild(p string, pi int, t string, ti int, fl wmFlags) int {
	for ; at(p, pi) != 0; pi, ti = pi+1, ti+1 {
		pch, tch := p[pi], at(t, ti)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		tch, pch = FoldCase(tch, fl.fold), FoldCase(pch, fl.fold)
		switch pch {
		case '\\':
			// A literal match with the next character; a trailing
			// backslash (0) matches nothing.
			pi++
			if tch != at(p, pi) {
				return wmNoMatch
			}
		case '?':
			if fl.pathname && tch == '/' {
				return wmNoMatch
			}
		case '*':
			var r int
			if pi, ti, r = star(p, pi, t, ti, fl); r != starGoOn {
				return r
			}
		case '[':
			var r int
			if pi, r = class(p, pi, tch, fl); r != wmMatch {
				return r
			}
		default:
			if tch != pch {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// star matches a run of '*' at p[pi]. It returns the final result, or -1
// with the positions from which the main loop goes on ("*/" consuming one
// directory).
func star(p string, pi int, t string, ti int, fl wmFlags) (int, int, int) {
	pathname := fl.pathname
	var matchSlash bool
	pi++
	if at(p, pi) == '*' {
		prev := pi - 2
		for pi++; at(p, pi) == '*'; pi++ {
		}
		next := at(p, pi)
		if !pathname {
			matchSlash = true
		} else if (prev < 0 || p[prev] == '/') && (next == 0 || next == '/' || next == '\\' && at(p, pi+1) == '/') {
			// "**/" may match no directory at all: try the rest here.
			if next == '/' && dowild(p, pi+1, t, ti, fl) == wmMatch {
				return pi, ti, wmMatch
			}
			matchSlash = true
		}
	} else {
		matchSlash = !pathname // without pathname, '*' is '**'
	}
	switch {
	case at(p, pi) == 0:
		// A trailing "**" matches everything, a trailing '*' only what has
		// no more slashes.
		if !matchSlash && strings.IndexByte(t[ti:], '/') >= 0 {
			return pi, ti, wmNoMatch
		}
		return pi, ti, wmMatch
	case !matchSlash && p[pi] == '/':
		// One '*' then a slash: the rest of this directory name.
		slash := strings.IndexByte(t[ti:], '/')
		if slash < 0 {
			return pi, ti, wmNoMatch
		}
		return pi, ti + slash, starGoOn // the main loop steps over both slashes
	}
	tch := at(t, ti)
	for tch != 0 {
		// Skip ahead to the next occurrence of a literal that follows the
		// star: the text before it belongs to the star.
		if pch := p[pi]; !isGlobSpecial(pch) {
			pch = FoldCase(pch, fl.fold)
			for tch = FoldCase(at(t, ti), fl.fold); tch != 0 && (matchSlash || tch != '/') && tch != pch; tch = FoldCase(at(t, ti), fl.fold) {
				ti++
			}
			if tch != pch {
				return pi, ti, wmNoMatch
			}
		}
		if r := dowild(p, pi, t, ti, fl); r != wmNoMatch {
			if !matchSlash || r != wmAbortToStarStar {
				return pi, ti, r
			}
		} else if !matchSlash && tch == '/' {
			return pi, ti, wmAbortToStarStar
		}
		ti++
		tch = at(t, ti)
	}
	return pi, ti, wmAbortAll
}

// class matches the bracket expression at p[pi] ('[') against tch. It
// returns the position of its closing ']' and wmMatch, or the final result.
func class(p string, pi int, tch byte, fl wmFlags) (int, int) {
	pi++
	pch := at(p, pi)
	if pch == '^' {
		pch = '!'
	}
	negated := pch == '!'
	if negated {
		pi++
		pch = at(p, pi)
	}
	var prev byte
	matched := false
	for {
		switch {
		case pch == 0:
			return pi, wmAbortAll
		case pch == '\\':
			pi++
			if pch = at(p, pi); pch == 0 {
				return pi, wmAbortAll
			}
			matched = matched || tch == pch
		case pch == '-' && prev != 0 && at(p, pi+1) != 0 && at(p, pi+1) != ']':
			pi++
			pch = p[pi]
			if pch == '\\' {
				pi++
				if pch = at(p, pi); pch == 0 {
					return pi, wmAbortAll
				}
			}
			matched = matched || tch <= pch && tch >= prev
			if up := tch - 'a' + 'A'; fl.fold && tch >= 'a' && tch <= 'z' {
				matched = matched || up <= pch && up >= prev
			}
			pch = 0 // a range ends: the next '-' is literal
		case pch == '[' && at(p, pi+1) == ':':
			s := pi + 2
			end := s
			for at(p, end) != 0 && p[end] != ']' {
				end++
			}
			if at(p, end) == 0 {
				return end, wmAbortAll
			}
			if end-s-1 < 0 || p[end-1] != ':' {
				// No ":]": a plain '['.
				matched = matched || tch == '['
				break
			}
			in, ok := inClass(p[s:end-1], tch)
			if !ok {
				return end, wmAbortAll // an unknown [:class:]
			}
			// Folded, a lower-case letter is also [:upper:].
			matched = matched || in || fl.fold && p[s:end-1] == "upper" && tch >= 'a' && tch <= 'z'
			pi, pch = end, 0
		default:
			matched = matched || tch == pch
		}
		prev = pch
		pi++
		if pch = at(p, pi); pch == ']' {
			break
		}
	}
	if matched == negated || fl.pathname && tch == '/' {
		return pi, wmNoMatch
	}
	return pi, wmMatch
}

// inClass tests c against a POSIX character class, in ASCII as git does.
func inClass(name string, c byte) (in, ok bool) {
	digit := c >= '0' && c <= '9'
	lower, upper := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
	switch name {
	case "alnum":
		return digit || lower || upper, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return lower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !digit && !lower && !upper, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || c|0x20 >= 'a' && c|0x20 <= 'f', true
	}
	return false, false
}
