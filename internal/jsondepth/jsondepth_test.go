package jsondepth

import (
	"strings"
	"testing"
)

func TestCheckRefusesDeepNestingOnly(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"flat", `{"a":[1,2,{"b":3}]}`, true},
		{"exactly the limit", strings.Repeat("[", 4) + strings.Repeat("]", 4), true},
		{"one past it", strings.Repeat("[", 5), false},
		{"brackets in strings do not count", `{"a":"[[[[[[[[[[{{{{{{"}`, true},
		{"an escaped quote does not end a string", `{"a":"\"[[[[[[[["}`, true},
		{"eight million brackets", strings.Repeat("[", 8<<20), false},
		// What lets deep nesting past the guard, the stack overflow back:
		{"closing brackets close: many siblings at one level", "[" + strings.Repeat("[],{},", 20) + "[]]", true},
		{"closers inside a string do not lower the depth", `[[[["]]]]",[`, false},
		{"an escaped backslash ends in a real closing quote", `["\\",[[[[`, false},
		{"a string's end is not missed after an escaped quote", `["a\"b",[[[[`, false},
		{"a quote inside a string's escape does not start another", `["\"[[[[[[["]`, true},
		{"an empty string does not hide what follows", `["",[[[[`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Check([]byte(tt.in), 4); (err == nil) != tt.ok {
				t.Errorf("Check = %v", err)
			}
		})
	}
}

// reference is Check as it was first written, a byte at a time: the
// definition the faster Check must agree with.
func reference(b []byte, max int) bool {
	depth := 0
	inString, escaped := false, false
	for _, c := range b {
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
				return false
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return true
}

func FuzzCheckAgreesWithTheByteAtATimeScan(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":3}]}`, `["\\",[[[[`, `["a\"b",[[[[`, `["\"[[[[[[["]`,
		`[[[["]]]]",[`, `"\\\\\"[[[[[" [[[[[`, `{"t":"x\\\\"}[[[[[`, `"unterminated [[[[[[`} {
		f.Add([]byte(s), 4)
	}
	f.Fuzz(func(t *testing.T, b []byte, max int) {
		if max < 0 || max > 64 {
			return
		}
		if got, want := Check(b, max) == nil, reference(b, max); got != want {
			t.Errorf("Check(%q, %d) ok=%v, the byte-at-a-time scan says %v", b, max, got, want)
		}
	})
}

func BenchmarkCheckATranscriptLine(b *testing.B) {
	line := []byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"` +
		strings.Repeat(`a long answer with \"quotes\" and \\ backslashes, `, 200) + `"}]}}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		Check(line, Max)
	}
}
