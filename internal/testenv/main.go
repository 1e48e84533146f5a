package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Main runs a package's tests with a configuration and a cache directory
// of their own (XDG_CONFIG_HOME, XDG_CACHE_HOME), removed after: the hooks
// they run make their sealing key, keep the diff stat and install keeps
// its backups there, never in the user's. Call it from TestMain.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "session-hooks-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
