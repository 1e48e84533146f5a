package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	KeepGoCache()
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// KeepGoCache pins Go's build cache where it is before XDG_CACHE_HOME is
// pointed elsewhere: a test that builds a binary (or a fuzz worker that
// does) would otherwise build everything again from a cold cache.
func KeepGoCache() {
	if os.Getenv("GOCACHE") != "" {
		return
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil && len(strings.TrimSpace(string(out))) > 0 {
		os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
}
