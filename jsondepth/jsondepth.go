// Package jsondepth bounds how deeply a JSON text may nest before anything
// parses it. gjson's validator recurses once per level, and a file of
// eight million '[' (a hostile repository's feature list, config or task
// file) overflowed the goroutine stack: a fatal error no recover() can
// turn into a note. One pass over the bytes, before any parser, closes
// that whole class.
package jsondepth

import "fmt"

// Max is the deepest nesting session-hooks accepts: Claude Code's payloads
// and transcripts nest a dozen levels, settings and feature lists fewer.
const Max = 512

// Check reports an error when b nests arrays and objects deeper than max
// (strings, and brackets inside them, are skipped as JSON defines them).
func Check(b []byte, max int) error {
	depth := 0
	inString, escaped := false, false
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			if depth > max {
				return fmt.Errorf("nests deeper than %d levels (at byte %d)", max, i)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}
