//go:build unix

// The bridge is a POSIX shell script; Claude Code provisions no Windows
// binary for it.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The plugin's bridge runs the binary npm placed in the plugin's
// node_modules, else the one Claude Code placed beside it (the manifest's
// "binaries"), else the one on PATH; each with SESSION_HOOKS_PLUGIN=1, and
// the arguments whole. Without any, a session start tells the user how to
// install it, and any other hook says nothing; both exit 0.
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
	run := func(args ...string) string {
		if len(args) == 0 {
			args = []string{"init", "--compact-recovery"}
		}
		cmd := exec.Command(filepath.Join(plugin, "session-hooks-bridge"), args...)
		cmd.Env = []string{"PATH=" + path + ":/usr/bin:/bin"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run("init"); !strings.Contains(got, `"systemMessage":"session-hooks plugin: the session-hooks binary was not found`) ||
		!strings.Contains(got, "npm i -g session-hooks") {
		t.Errorf("a session start without any binary: %q", got)
	}
	if got := run("end"); got != "" {
		t.Errorf("another hook without any binary: %q", got)
	}
	fake(path, "on-path")
	if got := run(); got != "on-path 1 init --compact-recovery" {
		t.Errorf("without its own binary: %q", got)
	}
	fake(plugin, "own")
	if got := run(); got != "own 1 init --compact-recovery" {
		t.Errorf("with its own binary: %q", got)
	}
	platform := map[string]string{"linux": "linux", "darwin": "darwin"}[runtime.GOOS] + "-" +
		map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	fake(filepath.Join(root, "plugin", "node_modules", "@session-hooks", "other-platform", "bin"), "another platform's")
	if got := run(); got != "own 1 init --compact-recovery" {
		t.Errorf("with another platform's npm package only: %q", got)
	}
	fake(filepath.Join(root, "plugin", "node_modules", "@session-hooks", platform, "bin"), "npm's")
	if got := run(); got != "npm's 1 init --compact-recovery" {
		t.Errorf("with npm's binary: %q", got)
	}
}

// The bridge never runs a session-hooks the project could have planted:
// PATH's empty and relative entries (the session's directory) and its
// entries inside the project (node_modules/.bin) are passed over for the
// one installed outside it.
func TestTheBridgeRunsNoBinaryTheProjectPlanted(t *testing.T) {
	bridge, _ := filepath.Abs("plugin/bin/session-hooks-bridge")
	root := t.TempDir()
	project, installed := filepath.Join(root, "project"), filepath.Join(root, "installed")
	for dir, name := range map[string]string{project: "planted", filepath.Join(project, "node_modules", ".bin"): "planted-npm", installed: "installed"} {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "session-hooks"), []byte("#!/bin/sh\necho "+name+"\n"), 0o755)
	}
	for _, tt := range []struct{ path, projectDir, want string }{
		{":" + installed + ":/usr/bin:/bin", project, "installed"},
		{".:" + installed + ":/usr/bin:/bin", project, "installed"},
		{"node_modules/.bin:" + installed + ":/usr/bin:/bin", project, "installed"},
		{filepath.Join(project, "node_modules", ".bin") + ":" + installed + ":/usr/bin:/bin", project, "installed"},
		{filepath.Join(project, "node_modules", ".bin") + ":" + installed + ":/usr/bin:/bin", "", "installed"}, // the project is where it runs
		{".:/usr/bin:/bin", project, ""},
	} {
		cmd := exec.Command(bridge, "end")
		cmd.Dir = project
		cmd.Env = []string{"PATH=" + tt.path, "CLAUDE_PROJECT_DIR=" + tt.projectDir}
		if tt.projectDir == "" {
			cmd.Env = cmd.Env[:1]
		}
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != tt.want {
			t.Errorf("PATH=%s: ran %q (%v), want %q", tt.path, got, err, tt.want)
		}
	}
}
