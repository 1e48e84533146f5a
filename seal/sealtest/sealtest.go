// Package sealtest gives a package's tests a configuration directory of
// their own, so that the sealing key (package seal) is made there and
// removed after, never in the user's.
package sealtest

import (
	"os"
	"testing"
)

// Main runs the tests with XDG_CONFIG_HOME in a temporary directory; call
// it from a package's TestMain.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "session-hooks-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
