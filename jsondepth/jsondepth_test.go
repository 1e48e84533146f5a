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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Check([]byte(tt.in), 4); (err == nil) != tt.ok {
				t.Errorf("Check = %v", err)
			}
		})
	}
}
