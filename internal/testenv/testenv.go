// Package testenv says what a test does when the machine lacks what it
// needs (FUSE, a tmpfs mount, hard links, git): it skips, saying why, on a
// developer's machine, and fails in CI (CI set), where a skip would pass a
// run that tested nothing.
package testenv

import (
	"os"
	"testing"
)

// Need skips the test, or fails it in CI, when err says what it needs is
// missing.
func Need(t testing.TB, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is needed, and CI must provide it: %v", what, err)
	}
	t.Skipf("%s is missing here (%v); CI runs this test", what, err)
}
