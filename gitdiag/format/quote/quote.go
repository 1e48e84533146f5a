package quote

import (
	"fmt"
	"strings"
)

// CStyle is git's quote_c_style with core.quotePath=true: names with
// control characters, quotes, backslashes or non-ASCII bytes are written as
// C strings. `git status --short` also quotes names containing spaces.
func CStyle(p string, quoteSpace bool) string { return Path(p, quoteSpace, true) }

// Path is quote_c_style as core.quotePath says: with fully false, bytes
// past ASCII are written as they are (a UTF-8 name stays readable), and
// only controls, DEL, quotes and backslashes make a name a C string.
func Path(p string, quoteSpace, fully bool) string {
	quoted := func(c byte) bool { return c < 0x20 || c == 0x7f || c > 0x7f && fully }
	needs := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if quoted(c) || c == '"' || c == '\\' || (quoteSpace && c == ' ') {
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
			if quoted(c) {
				fmt.Fprintf(&sb, `\%03o`, c)
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// Unquote reads a C-quoted string at the start of s (git's
// unquote_c_style) and returns it with the number of bytes it took.
func Unquote(s string) (string, int, bool) {
	var out strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return out.String(), i + 1, true
		case c != '\\':
			out.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", 0, false
		}
		switch c = s[i]; c {
		case 'a':
			out.WriteByte('\a')
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'v':
			out.WriteByte('\v')
		case '\\', '"':
			out.WriteByte(c)
		case '0', '1', '2', '3':
			if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
				return "", 0, false
			}
			out.WriteByte((c-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
			i += 2
		default:
			return "", 0, false
		}
	}
	return "", 0, false
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
