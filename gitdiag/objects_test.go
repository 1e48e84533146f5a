package gitdiag

import (
	"bytes"
	"strings"
	"testing"
)

func TestApplyDelta(t *testing.T) {
	base := []byte("hello, world")
	big := bytes.Repeat([]byte("x"), 0x10000)
	tests := []struct {
		name  string
		base  []byte
		delta []byte
		want  string
		err   string
	}{
		{"copy then insert", base,
			[]byte{12, 8, 0x91, 7, 5, 3, '!', '!', '!'}, "world!!!", ""},
		{"copy of size 0 means 64 KiB", big,
			[]byte{0x80, 0x80, 0x04, 0x80, 0x80, 0x04, 0x80}, strings.Repeat("x", 0x10000), ""},
		{"base size mismatch", base, []byte{11, 1, 1, 'a'}, "", "does not match its base"},
		{"copy outside the base", base, []byte{12, 5, 0x91, 10, 5}, "", "outside its base"},
		{"truncated copy", base, []byte{12, 5, 0x91, 10}, "", "truncated delta"},
		{"truncated insert", base, []byte{12, 5, 5, 'a'}, "", "truncated delta"},
		{"result shorter than declared", base, []byte{12, 9, 2, 'a', 'b'}, "", "wrong size"},
		{"reserved instruction", base, []byte{12, 1, 0}, "", "bad delta instruction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyDelta(tt.base, tt.delta)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %q, %v; want error %q", got, err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %d bytes, %v", len(got), err)
			}
		})
	}
}
