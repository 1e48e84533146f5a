package sanitize

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// wholeTag is a complete system-reminder tag, opening or closing.
var wholeTag = regexp.MustCompile(`(?i)</?system-reminder\b[^>]*>`)

func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;title\x07", "password=hunter2", "-----BEGIN RSA PRIVATE KEY-----\nabc", "bad \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Clean(s)
		if wholeTag.MatchString(c) {
			t.Fatalf("Clean(%q) = %q keeps a system-reminder tag", s, c)
		}
		if !utf8.ValidString(c) || strings.ContainsAny(c, "\x1b\x00\x07\u202e\u200b") {
			t.Fatalf("Clean(%q) = %q", s, c)
		}
		if e := Excerpt(s, 50); strings.ContainsAny(e, "\n\t") || utf8.RuneCountInString(e) > 53 {
			t.Fatalf("Excerpt(%q) = %q", s, e)
		}
	})
}
