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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Check([]byte(tt.in), 4); (err == nil) != tt.ok {
				t.Errorf("Check = %v", err)
			}
		})
	}
}
