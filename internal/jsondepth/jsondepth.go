// Package jsondepth bounds how deeply a JSON text may nest before anything
// parses it. gjson's validator recurses once per level, and a file of
// eight million '[' (a hostile repository's feature list, config or task
// file) overflowed the goroutine stack: a fatal error no recover() can
// turn into a note. One pass over the bytes, before any parser, closes
// that whole class.
package jsondepth

import (
	"bytes"
	"fmt"
)

// Max is the deepest nesting session-hooks accepts: Claude Code's payloads
// and transcripts nest a dozen levels, settings and feature lists fewer.
const Max = 512

// Check reports an error when b nests arrays and objects deeper than max
// (strings, and brackets inside them, are skipped as JSON defines them).
//
// A string is skipped to its closing quote with bytes.IndexByte: a
// transcript line is mostly string, and going through it a byte at a time
// was the largest part of reading a transcript.
func Check(b []byte, max int) error {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return nil // the text ends inside a string: nothing nests further
			}
			i = end
		case '[', '{':
			depth++
			if depth > max {
				return fmt.Errorf("nests deeper than %d levels (at byte %d)", max, i)
			}
		case ']', '}':
			depth--
		}
	}
	return nil
}

// stringEnd is the index of the quote that closes the string whose content
// starts at from, or -1: a quote closes it unless an odd number of
// backslashes stands right before it.
func stringEnd(b []byte, from int) int {
	for {
		q := bytes.IndexByte(b[from:], '"')
		if q < 0 {
			return -1
		}
		q += from
		slashes := 0
		for k := q - 1; k >= from && b[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 0 {
			return q
		}
		from = q + 1
	}
}
