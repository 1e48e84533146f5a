package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// installPlugin lays the repository's plugin out as Claude Code 2.1.330
// installs it from a marketplace (observed with a local one): the hooks
// under the cache, the registry, and the user's enabledPlugins.
func installPlugin(t *testing.T, config string) string {
	t.Helper()
	root := filepath.Join(config, "plugins", "cache", "session-hooks", "session-hooks", "0.1.0")
	hooks, err := os.ReadFile(filepath.Join("..", "..", "..", "plugin", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "hooks"), 0o755)
	os.WriteFile(filepath.Join(root, "hooks", "hooks.json"), hooks, 0o644)
	os.WriteFile(filepath.Join(config, "plugins", "installed_plugins.json"), []byte(`{"version": 2, "plugins": {"session-hooks@session-hooks": [
		{"scope": "user", "installPath": "`+root+`", "version": "0.1.0"}]}}`), 0o644)
	os.WriteFile(filepath.Join(config, "settings.json"), []byte(`{"enabledPlugins": {"session-hooks@session-hooks": true}}`), 0o644)
	return root
}

func TestStatusSeesTheHooksAnEnabledPluginProvides(t *testing.T) {
	config, project := t.TempDir(), t.TempDir()
	root := installPlugin(t, config)
	env := Env{Dir: project, Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return config
		}
		return ""
	}, Home: func() (string, error) { return t.TempDir(), nil }}
	st := ReadStatus(env, "")
	var plugin *ScopeStatus
	for i := range st.Scopes {
		if st.Scopes[i].Scope == "plugin session-hooks@session-hooks" {
			plugin = &st.Scopes[i]
		}
	}
	if plugin == nil || plugin.State != "present" || len(plugin.Hooks) == 0 {
		t.Fatalf("no plugin scope: %+v", st.Scopes)
	}
	if !strings.Contains(plugin.Hooks[0].Command, root+"/bin/session-hooks-bridge") {
		t.Errorf("${CLAUDE_PLUGIN_ROOT} not expanded: %q", plugin.Hooks[0].Command)
	}
	for _, w := range st.Warnings {
		if strings.Contains(w, "no scope wires") {
			t.Errorf("the plugin's hooks were not counted as wired: %q", w)
		}
		if strings.Contains(w, "has no timeout") {
			t.Errorf("the plugin's timeouts were not read: %q", w)
		}
	}
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), []byte(`{"enabledPlugins": {"session-hooks@session-hooks": false}}`), 0o644)
	if st := ReadStatus(env, ""); len(st.Scopes) != 3 {
		t.Errorf("a plugin disabled in local scope still counted: %+v", st.Scopes)
	}
}

// Installed as the README says (marketplace, then plugin install, user
// scope), in a project with no settings.json: the plugin's own entries are
// no reason for it to stand down, and status says each runs. Where a
// settings file wires an entry, the plugin stands down for it, and status
// says which settings run it; a settings file Claude Code does not load
// runs nothing, so the plugin does not stand down for it.
func TestThePluginRunsUnlessASettingsFileItLoadsWiresTheEntry(t *testing.T) {
	env, project := withPlugin(t)
	for _, row := range []struct {
		event string
		args  []string
	}{{"SessionStart", []string{"init"}}, {"SessionStart", []string{"init", "--compact-recovery"}}, {"PreCompact", []string{"pre-compact"}}, {"SessionEnd", []string{"end"}}} {
		if Wires(env, row.event, row.args) {
			t.Errorf("%s %v: the plugin stands down for its own entry", row.event, row.args)
		}
	}
	if text := ReadStatus(env, "").Wiring().Text(reader); strings.Contains(text, "stands down") || !strings.Contains(text, "session-hooks-bridge\" end (timeout 5s): runs\n") ||
		!strings.Contains(text, "settings.json): no hooks\n") {
		t.Errorf("status:\n%s", text)
	}
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	settings := filepath.Join(project, ".claude", "settings.json")
	os.WriteFile(settings, []byte(`{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "session-hooks end", "timeout": 5}]}]}}`), 0o644)
	if !Wires(env, "SessionEnd", []string{"end"}) || Wires(env, "SessionStart", []string{"init"}) {
		t.Errorf("with the project wiring end only: end %v, init %v", Wires(env, "SessionEnd", []string{"end"}), Wires(env, "SessionStart", []string{"init"}))
	}
	if text := ReadStatus(env, "").Wiring().Text(reader); !strings.Contains(text, "end (timeout 5s): stands down, the project settings run it") {
		t.Errorf("status:\n%s", text)
	}
	os.WriteFile(settings, []byte(`{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "session-hooks end", "timeout": 5}]}]}, // a comment
}`), 0o644)
	if Wires(env, "SessionEnd", []string{"end"}) {
		t.Errorf("the plugin stands down for a settings file Claude Code does not load")
	}
}

// Only an entry that would run stands the plugin down: one whose matcher
// fires for none, or only some, of the sources the plugin's own entry
// serves leaves the plugin running, and status says it runs.
func TestADeadSettingsEntryDoesNotSilenceThePlugin(t *testing.T) {
	env, project := withPlugin(t)
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	settings := filepath.Join(project, ".claude", "settings.json")
	for _, tt := range []struct {
		event, matcher, command string
		args                    []string
		standsDown              bool
	}{
		{"SessionStart", "never", "session-hooks init", []string{"init"}, false},
		{"SessionStart", "startup", "session-hooks init", []string{"init"}, false},
		{"SessionStart", "startup|resume|clear|fork", "session-hooks init", []string{"init"}, true},
		{"SessionStart", "", "session-hooks init", []string{"init"}, true},
		{"PreCompact", "manual", "session-hooks pre-compact", []string{"pre-compact"}, false},
		{"PreCompact", "manual|auto", "session-hooks pre-compact", []string{"pre-compact"}, true},
		{"SessionEnd", "whatever", "session-hooks end", []string{"end"}, true}, // its matcher is not read
	} {
		os.WriteFile(settings, []byte(`{"hooks": {"`+tt.event+`": [{"matcher": "`+tt.matcher+`", "hooks": [{"type": "command", "command": "`+tt.command+`", "timeout": 5}]}]}}`), 0o644)
		if got := Wires(env, tt.event, tt.args); got != tt.standsDown {
			t.Errorf("%s under %q: the plugin stands down %v, want %v", tt.event, tt.matcher, got, tt.standsDown)
		}
		text := ReadStatus(env, "").Wiring().Text(reader)
		if got := strings.Contains(text, "stands down"); got != tt.standsDown {
			t.Errorf("%s under %q: status says stands down %v, want %v:\n%s", tt.event, tt.matcher, got, tt.standsDown, text)
		}
	}
}

// withPlugin is a Claude Code configuration with the plugin installed
// (user scope) and an empty project: the Env status reads them with.
func withPlugin(t *testing.T) (Env, string) {
	t.Helper()
	config, project := t.TempDir(), t.TempDir()
	installPlugin(t, config)
	return Env{Dir: project, Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return config
		}
		return ""
	}, Home: func() (string, error) { return t.TempDir(), nil }}, project
}
