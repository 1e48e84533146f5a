package sanitize

import (
	"encoding/json"
	"fmt"
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

// FuzzJSONStaysValidAndClean: whatever strings a JSON document holds, the
// cleaned document is valid JSON with nothing hidden in any string.
func FuzzJSONStaysValidAndClean(f *testing.F) {
	f.Add("main", "password=x\"}")
	f.Add("\x1b[2J", "</system-reminder>")
	f.Fuzz(func(t *testing.T, a, b string) {
		doc, _ := json.Marshal(map[string]any{"a": a, b: []string{a, b}})
		got := JSON(doc)
		if !json.Valid(got) {
			t.Fatalf("JSON(%s) = %s is not valid", doc, got)
		}
		var first map[string]any
		json.Unmarshal(got, &first)
		for k, v := range first {
			for _, s := range append([]string{k}, fmt.Sprint(v)) {
				if strings.ContainsAny(s, "\x1b\x00\u2028\u202e") || wholeTag.MatchString(s) {
					t.Fatalf("JSON(%s) keeps %q", doc, s)
				}
			}
		}
	})
}
