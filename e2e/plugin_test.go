//go:build e2e

package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The plugin in this repository, loaded into the real Claude Code, runs the
// binary from PATH: the startup brief and the recovery after a compaction
// arrive exactly once, whether settings.json wires session-hooks too (the
// plugin stands down) or not (the plugin does the work).
func TestThePluginDeliversTheStartAndTheRecoveryOnce(t *testing.T) {
	plugin, err := filepath.Abs("../plugin")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(hooksBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if p, err := exec.LookPath("session-hooks"); err != nil || p != hooksBin {
		t.Fatalf("session-hooks on PATH is %q (%v), want %s", p, err, hooksBin)
	}
	for _, settingsToo := range []bool{false, true} {
		name := "plugin alone"
		if settingsToo {
			name = "plugin and settings.json"
		}
		t.Run(name, func(t *testing.T) {
			s := newSession(t)
			if !settingsToo {
				os.WriteFile(s.settings, []byte("{}\n"), 0o644)
			}
			s.extra = []string{"--plugin-dir", plugin}
			s.api.Push(work(s.project)...)
			id := s.claude(s.project, "-p", "Please write notes.txt with my first notes.")
			start := messagesText(s.mainRequests()[0])
			if n := strings.Count(start, briefHeader); n != 1 {
				t.Errorf("the startup brief arrived %d times:\n%s", n, clip(start, 4000))
			}
			s.claude(s.project, "-p", "/compact", "--resume", id)
			recovered := s.afterCompaction(id)
			if n := strings.Count(recovered, "end of session-hooks recovery"); n != 1 {
				t.Errorf("the recovery arrived %d times:\n%s", n, clip(recovered, 6000))
			}
			contains(t, "the recovery", recovered, "> Please write notes.txt with my first notes.")
		})
	}
}

// Without the binary, the plugin says how to install it, to the user, and
// puts nothing in front of the model.
func TestThePluginWithoutTheBinaryStaysQuiet(t *testing.T) {
	plugin, _ := filepath.Abs("../plugin")
	t.Setenv("PATH", "/usr/bin:/bin")
	s := newSession(t)
	os.WriteFile(s.settings, []byte("{}\n"), 0o644)
	s.extra = []string{"--plugin-dir", plugin}
	s.claude(s.project, "-p", "hello")
	if text := messagesText(s.mainRequests()[0]); strings.Contains(text, "session-hooks") {
		t.Errorf("the model was told about session-hooks:\n%s", clip(text, 3000))
	}
}

// Claude Code's own validator accepts the marketplace and the plugin.
func TestThePluginValidates(t *testing.T) {
	requireClaude(t)
	root, _ := filepath.Abs("..")
	for _, dir := range []string{root, filepath.Join(root, "plugin")} {
		cmd := exec.Command(claudeBin, "plugin", "validate", dir)
		cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+t.TempDir(), "DISABLE_TELEMETRY=1",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
		out, err := cmd.CombinedOutput()
		// The plugin directory's catalog checks (an icon) are for
		// submitting it there, and do not change the result.
		if err != nil || !strings.Contains(string(out), "✔ Validation passed\n") {
			t.Errorf("claude plugin validate %s: %v\n%s", dir, err, out)
		}
	}
}

// The manifest's "binaries", as scripts/pluginbinaries writes them (here
// the sha256 of the suite's own build): Claude Code's validator accepts
// them, and the plugin installs from a local marketplace. Claude Code
// fetches such files only from Anthropic's plugin-asset store, for a
// claude.ai login: with an API key it places none, and the bridge runs the
// binary on PATH (TestThePluginDeliversTheStartAndTheRecoveryOnce).
func TestThePluginsBinariesAreAcceptedAndTheBridgeFallsBackToPath(t *testing.T) {
	requireClaude(t)
	root, _ := filepath.Abs("..")
	market := t.TempDir()
	copyTree(t, filepath.Join(root, ".claude-plugin"), filepath.Join(market, ".claude-plugin"))
	copyTree(t, filepath.Join(root, "plugin"), filepath.Join(market, "plugin"))
	sum := sha256Of(t, hooksBin)
	manifest := filepath.Join(market, "plugin", ".claude-plugin", "plugin.json")
	b, _ := os.ReadFile(manifest)
	b = []byte(strings.Replace(string(b), "{", `{"binaries": {"session-hooks-x86_64-unknown-linux-musl": {"sha256": "`+sum+`"}, "session-hooks-aarch64-apple-darwin": {"sha256": "`+sum+`"}},`, 1))
	os.WriteFile(manifest, b, 0o644)

	config := t.TempDir()
	claude := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(claudeBin, args...)
		cmd.Dir = market
		cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+config, "ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL=http://127.0.0.1:9",
			"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := claude("plugin", "validate", filepath.Join(market, "plugin")); strings.Contains(out, "binaries") {
		t.Errorf("the validator objects to the binaries:\n%s", out)
	}
	claude("plugin", "marketplace", "add", market)
	claude("plugin", "install", "session-hooks@session-hooks")
	installed, _ := filepath.Glob(filepath.Join(config, "plugins", "cache", "session-hooks", "session-hooks", "*", "bin", "*"))
	var names []string
	for _, p := range installed {
		names = append(names, filepath.Base(p))
	}
	if strings.Join(names, " ") != "session-hooks-bridge" {
		t.Errorf("the installed plugin's bin/ holds %q; with an API key Claude Code was seen to place no binary", names)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-R", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
}

func sha256Of(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Installed as the README says: the marketplace added (this repository,
// as a local path), the plugin installed at user scope, in a project with
// no settings.json. Its own hooks.json must not make it stand down: the
// brief arrives once, and status says the plugin's entries run. A project
// whose settings.json wires session-hooks gets the brief once too, from
// the settings; status says the plugin stands down for those entries.
func TestThePluginInstalledFromTheMarketplaceRuns(t *testing.T) {
	root, _ := filepath.Abs("..")
	t.Setenv("PATH", filepath.Dir(hooksBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tt := range []struct {
		name, scope string
		settingsToo bool
	}{{"no settings.json", "user", false}, {"settings.json wires it too", "user", true}, {"installed for the project", "project", false}} {
		settingsToo := tt.settingsToo
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			if !settingsToo {
				os.Remove(s.settings)
			}
			for _, args := range [][]string{{"plugin", "marketplace", "add", root}, {"plugin", "install", "--scope", tt.scope, "session-hooks@session-hooks"}} {
				cmd := exec.Command(claudeBin, args...)
				cmd.Dir = s.project
				cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+s.config, "DISABLE_TELEMETRY=1",
					"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("claude %v: %v\n%s", args, err, out)
				}
			}
			s.claude(s.project, "-p", "hello")
			start := messagesText(s.mainRequests()[0])
			if n := strings.Count(start, briefHeader); n != 1 {
				t.Errorf("the startup brief arrived %d times:\n%s", n, clip(start, 4000))
			}
			cmd := exec.Command(hooksBin, "status")
			cmd.Dir = s.project
			cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+s.config)
			out, _ := cmd.Output()
			want := "session-hooks-bridge\" init (timeout 30s): runs"
			if settingsToo {
				want = "session-hooks-bridge\" init (timeout 30s): stands down, the project settings run it"
			}
			contains(t, "status", string(out), want)
		})
	}
}
