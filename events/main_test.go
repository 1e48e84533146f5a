package events

import (
	"os"
	"testing"
)

// TestMain gives the tests a configuration directory of their own: the
// sealing key (package seal) is made there, not in the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "session-hooks-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
