package settings

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tailscale/hujson"
)

// Claude Code 2.1.330 reads settings.json as strict JSON: one comment or
// one trailing comma and the whole file is refused ("Invalid or malformed
// JSON"), none of its hooks or settings apply, and only `claude --debug`
// says so. A file install could edit losslessly may still be one Claude
// Code never loads; these say which.

// NotLoaded says why Claude Code refuses the settings b, or "" when it
// loads them (an empty file holds no settings, and is no error).
func NotLoaded(b []byte) string {
	if len(bytes.TrimSpace(b)) == 0 || json.Valid(b) {
		return ""
	}
	if line, what := firstNonStrict(b); line > 0 {
		return fmt.Sprintf("line %d: %s; Claude Code refuses a settings file with comments or trailing commas as a whole, so none of its hooks run", line, what)
	}
	return "it is not valid JSON; Claude Code refuses it as a whole, so none of its hooks run"
}

// firstNonStrict finds the first comment or trailing comma outside
// strings, and its line.
func firstNonStrict(b []byte) (line int, what string) {
	line = 1
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\n':
			line++
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '/' && i+1 < len(b) && (b[i+1] == '/' || b[i+1] == '*'):
			return line, "a comment (" + string(b[i:i+2]) + ")"
		case c == ',' && closesNext(b[i+1:]):
			return line, "a trailing comma"
		}
	}
	return 0, ""
}

// closesNext says whether the next token of b (blanks and comments
// skipped) closes an object or an array.
func closesNext(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return false
			}
			i += end + 3
		default:
			return c == '}' || c == ']'
		}
	}
	return false
}

// Strict rewrites settings as strict JSON: comments and trailing commas
// go (hujson's Standardize blanks them), a line left blank by a comment
// goes with it, and every other byte stays.
func Strict(b []byte) ([]byte, error) {
	out, err := hujson.Standardize(append([]byte(nil), b...))
	if err != nil {
		return nil, err
	}
	before, after := bytes.Split(b, []byte("\n")), bytes.Split(out, []byte("\n"))
	if len(before) != len(after) {
		return out, nil
	}
	var kept [][]byte
	for i, line := range after {
		if bytes.Equal(line, before[i]) {
			kept = append(kept, line)
			continue
		}
		body, cr := bytes.CutSuffix(line, []byte("\r"))
		body = bytes.TrimRight(body, " \t")
		if len(bytes.TrimSpace(body)) == 0 && len(bytes.TrimSpace(before[i])) > 0 {
			continue // a line that held only a comment
		}
		if cr {
			body = append(body, '\r')
		}
		kept = append(kept, body)
	}
	return bytes.Join(kept, []byte("\n")), nil
}
