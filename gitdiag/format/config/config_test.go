package config

import (
	"strings"
	"testing"
)

func TestConfigBooleans(t *testing.T) {
	c := New()
	Parse([]byte("[x]\n\tbare\n\tempty =\n\tyes = YES\n\toff = off\n\tzero = 0\n\tjunk = maybe\n"), func(k string, v Value) error {
		c.Values[k] = v
		return nil
	}, "test")
	for key, want := range map[string]bool{"x.bare": true, "x.empty": false, "x.yes": true, "x.off": false, "x.zero": false, "x.junk": true, "x.missing": true} {
		if got := c.GetBool(key, true); got != want {
			t.Errorf("getBool(%s) = %v, want %v", key, got, want)
		}
	}
}

func FuzzConfig(f *testing.F) {
	f.Add([]byte("[core]\n\texcludesFile = ~/ignore\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"))
	f.Add([]byte("[extensions]\nobjectFormat = sha256\n; comment\n# comment\n[a.b]\nx=\"quoted \\\" value\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// parseConfig, not merge: an include.path must not send the fuzzer
		// reading files.
		Parse(data, func(key string, v Value) error {
			if key == "" || strings.HasSuffix(key, ".") {
				t.Fatalf("empty name accepted: %q", key)
			}
			return nil
		}, "fuzz")
	})
}
