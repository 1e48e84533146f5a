package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;title\x07", "password=hunter2", "-----BEGIN RSA PRIVATE KEY-----\nabc", "bad \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Clean(s)
		if !utf8.ValidString(c) || strings.ContainsAny(c, "\x1b\x00\x07\u202e") {
			t.Fatalf("Clean(%q) = %q", s, c)
		}
		if e := Excerpt(s, 50); strings.ContainsAny(e, "\n\t") || utf8.RuneCountInString(e) > 53 {
			t.Fatalf("Excerpt(%q) = %q", s, e)
		}
	})
}
