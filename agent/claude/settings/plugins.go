package settings

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/internal/safefile"
	"github.com/tidwall/gjson"
)

// Hooks an enabled plugin provides run as surely as those of a settings
// file: with the session-hooks plugin installed and working, status and
// doctor said nothing was wired. Claude Code 2.1.330 (observed with a
// local marketplace) lists a plugin as enabled in a scope's settings
// ("enabledPlugins": {"name@marketplace": true}; a later scope overrides),
// records where it is installed in <config>/plugins/installed_plugins.json
// (version 2: plugins → name → [{installPath}]), and reads its hooks from
// <installPath>/hooks/hooks.json, where ${CLAUDE_PLUGIN_ROOT} is the
// install path.

// maxPluginFile bounds a plugin registry or hooks file read.
const maxPluginFile = 4 << 20

// enabledPlugins merges the scopes' enabledPlugins, user first, then
// project, then local.
func enabledPlugins(byScope map[string][]byte) []string {
	state := map[string]bool{}
	for _, scope := range []string{"user", "project", "local"} {
		gjson.GetBytes(byScope[scope], "enabledPlugins").ForEach(func(k, v gjson.Result) bool {
			state[k.Str] = v.Type == gjson.True
			return true
		})
	}
	var out []string
	for name, on := range state {
		if on {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// pluginScopes reads the hooks of each enabled plugin, as one scope each
// ("plugin NAME"), with ${CLAUDE_PLUGIN_ROOT} expanded.
func pluginScopes(env Env, byScope map[string][]byte) []ScopeStatus {
	names := enabledPlugins(byScope)
	if len(names) == 0 {
		return nil
	}
	config, err := claude.ConfigDir(env.Getenv, env.Home)
	if err != nil {
		return nil
	}
	registry, err := safefile.Read(filepath.Join(config, "plugins", "installed_plugins.json"), maxPluginFile)
	var out []ScopeStatus
	for _, name := range names {
		s := ScopeStatus{Scope: "plugin " + name, State: "absent"}
		installs := gjson.GetBytes(registry, "plugins."+gjson.Escape(name)).Array()
		if err != nil || len(installs) == 0 {
			s.Error = "enabled, but not in " + filepath.Join(config, "plugins", "installed_plugins.json")
			out = append(out, s)
			continue
		}
		root := installs[len(installs)-1].Get("installPath").Str
		s.Path = filepath.Join(root, "hooks", "hooks.json")
		b, rerr := safefile.Read(s.Path, maxPluginFile)
		switch {
		case rerr != nil:
			s.State, s.Error = "unreadable", rerr.Error()
		case !json.Valid(b):
			s.State, s.Error = "unreadable", "not valid JSON"
		default:
			s.State = "present"
			for _, h := range hookfile.Wired(b) {
				h.Command = strings.ReplaceAll(h.Command, "${CLAUDE_PLUGIN_ROOT}", root)
				wh := WiredHook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Exec: h.Exec}
				if h.HasTimeout {
					t := h.Timeout
					wh.Timeout = &t
				}
				s.Hooks = append(s.Hooks, wh)
			}
		}
		out = append(out, s)
	}
	return out
}
