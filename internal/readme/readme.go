// Package readme keeps the README's generated blocks (the event table, the
// table of agents) equal to what generates them: a test compares each, and
// UPDATE_README=1 rewrites it instead.
package readme

import (
	"os"
	"strings"
	"testing"
)

// CheckBlock compares the README block between "<!-- name -->" and
// "<!-- end of name -->" with want, or rewrites it with UPDATE_README set;
// how says how to rewrite it, for the failure's message.
func CheckBlock(t testing.TB, path, name, want, how string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
		return
	}
	start, end := "<!-- "+name+" -->\n", "<!-- end of "+name+" -->\n"
	text := string(b)
	i, j := strings.Index(text, start), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", path, start, end)
		return
	}
	got := text[i+len(start) : j]
	if got == want {
		return
	}
	if os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile(path, []byte(text[:i+len(start)]+want+text[j:]), 0o644); err != nil {
			t.Error(err)
		}
		return
	}
	t.Errorf("%s's %s differs from its source (%s rewrites it):\n%s", path, name, how, want)
}
