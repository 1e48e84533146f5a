//go:build unix

// The bridge is a POSIX shell script; Claude Code provisions no Windows
// binary for it.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The plugin's bridge runs the binary Claude Code placed beside it (the
// manifest's "binaries") before the one on PATH, and the one on PATH
// without it; both with SESSION_HOOKS_PLUGIN=1, and the arguments whole.
func TestTheBridgePrefersThePluginsOwnBinary(t *testing.T) {
	bridge, _ := filepath.Abs("plugin/bin/session-hooks-bridge")
	fake := func(dir, name string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "session-hooks"), []byte("#!/bin/sh\necho \""+name+" $SESSION_HOOKS_PLUGIN $*\"\n"), 0o755)
	}
	root := t.TempDir()
	plugin, path := filepath.Join(root, "plugin", "bin"), filepath.Join(root, "path")
	os.MkdirAll(plugin, 0o755)
	b, _ := os.ReadFile(bridge)
	os.WriteFile(filepath.Join(plugin, "session-hooks-bridge"), b, 0o755)
	fake(path, "on-path")
	run := func() string {
		cmd := exec.Command(filepath.Join(plugin, "session-hooks-bridge"), "init", "--compact-recovery")
		cmd.Env = []string{"PATH=" + path + ":/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run(); got != "on-path 1 init --compact-recovery" {
		t.Errorf("without its own binary: %q", got)
	}
	fake(plugin, "own")
	if got := run(); got != "own 1 init --compact-recovery" {
		t.Errorf("with its own binary: %q", got)
	}
}
