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

// FuzzPlantedSecretNeverSurvives: a secret of each kind, planted in random
// text, never comes out of Clean whole.
func FuzzPlantedSecretNeverSurvives(f *testing.F) {
	f.Add("before ", " after", uint8(0))
	f.Add("\x1b]0;", "\x07", uint8(3))
	f.Add("password=", "\n", uint8(7))
	f.Fuzz(func(t *testing.T, before, after string, which uint8) {
		planted := catalogue[int(which)%len(catalogue)]
		in := before + " " + planted.in + " " + after
		if got := Clean(in); strings.Contains(got, planted.secret) {
			t.Fatalf("%s survived: Clean(%q) = %q", planted.name, in, got)
		}
	})
}
