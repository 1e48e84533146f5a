package settings

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"

	"github.com/session-hooks/session-hooks/hooks/facts"
)

// Status is what each settings scope wires, and what is wrong with it:
// the data both status's text and its JSON are made from.
type Status struct {
	SchemaVersion int           `json:"schema_version"`
	Scopes        []ScopeStatus `json:"scopes"`
	Warnings      []string      `json:"warnings"`
}

// ScopeStatus is one settings file.
type ScopeStatus struct {
	Scope string      `json:"scope"`
	Path  string      `json:"path"`
	State string      `json:"state"` // present, absent, unreadable, not-loaded (Claude Code refuses it)
	Error string      `json:"error"` // why it is unreadable or not loaded
	Hooks []WiredHook `json:"hooks"`
}

// WiredHook is one hook command a settings file wires.
type WiredHook struct {
	Event   string `json:"event"`
	Matcher string `json:"matcher"`
	Command string `json:"command"`
	Timeout *int   `json:"timeout_s"` // null when none is set
	Exec    bool   `json:"exec"`      // written in the exec form (command + args, no shell)
	// StandsDown, for a plugin's entry, is the settings scope that wires
	// the same entry: the plugin's hook then does nothing ("" when it runs).
	StandsDown string `json:"stands_down"`
}

// wired is a hook of ours found in a scope.
type wired struct {
	hookfile.Hook
	scope string
}

// ReadStatus reads every scope's settings and checks them.
func ReadStatus(env Env, custom string) Status {
	st, all := readScopes(env)
	for _, s := range st.Scopes {
		if s.State == "not-loaded" {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s (%s) is not loaded by Claude Code: %s. Run session-hooks install --scope %s --rewrite-strict to rewrite it as strict JSON", s.Scope, s.Path, s.Error, s.Scope))
		}
	}
	missing := checkWired(all, custom)
	if below := install.BelowTop(env.Dir, claude.Adapter.Label, ".claude/settings.json"); below != "" && len(missing) > 0 {
		missing = []string{below} // installing here would not help: it says what does
	}
	st.Warnings = append(st.Warnings, missing...)
	return st
}

// readScopes reads every scope's settings, without checking them.
func readScopes(env Env) (Status, []wired) {
	st := Status{SchemaVersion: facts.SchemaVersion}
	var all []wired
	byScope := map[string][]byte{}
	user, _ := env.settingsPath("user")
	for _, scope := range claude.Scopes {
		s := ScopeStatus{Scope: scope, State: "absent"}
		path, err := env.settingsPath(scope)
		s.Path = path
		// The project's files are read within the project (a committed
		// .claude linked out names nothing we read); the user's where they
		// are, links followed (a ~/.claude kept in a dotfiles repository),
		// even when the project is the home directory.
		// env.Dir is the project the paths were made from; no repository is
		// opened for it (this runs before every plugin hook too).
		read := func(p string) ([]byte, bool, error) { return hookfile.ReadWithin(env.Dir, p) }
		if scope == "user" || path == user {
			read = hookfile.Read
		}
		b, existed, err2 := read(path)
		if err == nil {
			err = err2
		}
		var js []byte
		if err == nil && existed {
			js, err = hookfile.Parse(b)
		}
		why := ""
		if err == nil && existed {
			why = NotLoaded(b)
		}
		switch {
		case err != nil:
			s.State, s.Error = "unreadable", err.Error()
		case why != "":
			// Its hooks are listed, but none counts as wired: Claude Code
			// runs none of them.
			s.State, s.Error = "not-loaded", why
			for _, h := range hookfile.Wired(js) {
				s.Hooks = append(s.Hooks, WiredHook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Exec: h.Exec})
			}
		case existed:
			byScope[scope] = js
			s.State = "present"
			for _, h := range hookfile.Wired(js) {
				wh := WiredHook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Exec: h.Exec}
				if h.HasTimeout {
					t := h.Timeout
					wh.Timeout = &t
				}
				s.Hooks = append(s.Hooks, wh)
				all = append(all, wired{h, scope})
			}
		}
		st.Scopes = append(st.Scopes, s)
	}
	for _, s := range pluginScopes(env, byScope) {
		st.Scopes = append(st.Scopes, s)
		for _, h := range s.Hooks {
			hook := hookfile.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Exec: h.Exec, HasTimeout: h.Timeout != nil}
			if h.Timeout != nil {
				hook.Timeout = *h.Timeout
			}
			all = append(all, wired{hook, s.Scope})
		}
	}
	markStandingDown(st.Scopes, all)
	return st, all
}

// markStandingDown names, on each plugin entry, the settings scope that
// wires the same entry of ours: the plugin's bridge stands down for it
// (Wires), so that nothing runs twice.
func markStandingDown(scopes []ScopeStatus, all []wired) {
	bySettings := map[string]string{}
	for _, w := range all {
		if e, ok := hookfile.RowFor(w.Event, w.Command); ok && !isPlugin(w.scope) && hookfile.IsOurs(w.Event, w.Command, "") && fires(w.Matcher, e.Matcher, w.Event) {
			if _, seen := bySettings[rowKey(e)]; !seen {
				bySettings[rowKey(e)] = w.scope
			}
		}
	}
	for i := range scopes {
		if !isPlugin(scopes[i].Scope) {
			continue
		}
		for j, h := range scopes[i].Hooks {
			if e, ok := hookfile.RowFor(h.Event, h.Command); ok {
				scopes[i].Hooks[j].StandsDown = bySettings[rowKey(e)]
			}
		}
	}
}

func rowKey(e eventtable.Event) string { return e.Event + " " + strings.Join(e.Args(), " ") }

func isPlugin(scope string) bool { return strings.HasPrefix(scope, "plugin ") }

// checkWired lists what is wrong with the hooks of every scope together.
func checkWired(all []wired, custom string) []string {
	var warnings []string
	seen := map[string]string{}
	have := map[string]bool{}
	for _, h := range all {
		switch {
		case hookfile.IsNode(h.Command):
			warnings = append(warnings, fmt.Sprintf("%s still runs the Node script (%s): run session-hooks install --scope %s to replace it", h.scope, h.Command, h.scope))
		case hookfile.IsOurs(h.Event, h.Command, custom):
			key := h.Event + " " + h.Command
			// A plugin stands down for what a settings file wires: not twice.
			if where, dup := seen[key]; dup && !isPlugin(where) && !isPlugin(h.scope) {
				warnings = append(warnings, fmt.Sprintf("%s → %s is wired twice (%s and %s)", h.Event, h.Command, where, h.scope))
			}
			seen[key] = h.scope
			if e, ok := hookfile.RowFor(h.Event, h.Command); ok {
				have[e.Event+" "+strings.Join(e.Args(), " ")] = true
			}
			if h.Event == "SessionEnd" && !h.HasTimeout {
				warnings = append(warnings, h.scope+": SessionEnd has no timeout: Claude Code cancels it after about 1.5 s; set one (install does)")
			}
			if _, err := exec.LookPath(hookfile.Program(h.Command)); err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: %s does not exist or is not executable", h.scope, hookfile.Program(h.Command)))
			}
		}
	}
	for _, e := range eventtable.Table {
		args := strings.Join(e.Args(), " ")
		if e.Installed(false, func(string) bool { return false }) && !have[e.Event+" "+args] {
			warnings = append(warnings, "no scope wires "+e.Event+" → session-hooks "+args)
		}
	}
	return dedupe(warnings)
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Wiring is the status in the one shape of every agent's (docs/json.md).
func (s Status) Wiring() wiring.Status {
	out := wiring.Status{SchemaVersion: s.SchemaVersion, Agent: "claude", Scopes: []wiring.Scope{}, Warnings: s.Warnings}
	for _, sc := range s.Scopes {
		w := wiring.Scope{Scope: sc.Scope, Path: sc.Path, State: sc.State, Error: sc.Error, Hooks: []wiring.Hook{}}
		for _, h := range sc.Hooks {
			var timeout *float64
			if h.Timeout != nil {
				t := float64(*h.Timeout)
				timeout = &t
			}
			w.Hooks = append(w.Hooks, wiring.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: timeout,
				Ours: hookfile.IsOurs(h.Event, h.Command, ""), Exec: h.Exec, StandsDown: h.StandsDown})
		}
		out.Scopes = append(out.Scopes, w)
	}
	return out
}
