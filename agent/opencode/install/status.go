package install

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/session-hooks/session-hooks/agent/opencode"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Status is OpenCode's wiring of session-hooks: the plugin file of each
// scope, the hooks it runs, and what is wrong.
type Status struct {
	SchemaVersion int
	Scopes        []wiring.Scope
	Warnings      []string
	entries       map[string][]Entry // by scope, as the files hold them
}

// ReadStatus reads both scopes' plugin files (dir is the project, or a
// directory in it) and says what is wrong.
func ReadStatus(dir string, getenv func(string) string, home func() (string, error)) Status {
	st := Status{SchemaVersion: facts.SchemaVersion, Scopes: []wiring.Scope{}, Warnings: []string{}, entries: map[string][]Entry{}}
	wired := map[string][]string{} // event and arguments → the scopes that run them
	for _, scope := range []string{"project", "user"} {
		path, err := Path(scope, dir, getenv, home)
		if err != nil {
			st.Warnings = append(st.Warnings, err.Error())
			continue
		}
		sc, entries := readScope(scope, path)
		st.Scopes = append(st.Scopes, sc)
		if sc.Error != "" {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s", path, sc.Error))
			continue
		}
		st.entries[scope] = entries
		for _, e := range entries {
			wired[e.On+" "+e.Args] = append(wired[e.On+" "+e.Args], scope)
		}
	}
	var want []wiring.Entry
	for _, e := range Entries("", false) {
		want = append(want, wiring.Entry{Key: e.On + " " + e.Args, Name: e.On + " → session-hooks " + e.Args})
	}
	st.Warnings = append(st.Warnings, wiring.Coverage(want, wired, opencode.Adapter.Label, "plugin files", "session-hooks --agent opencode install")...)
	return st
}

func readScope(scope, path string) (wiring.Scope, []Entry) {
	sc := wiring.Scope{Scope: scope, Path: path, State: "absent", Hooks: []wiring.Hook{}}
	doc, err := read(path)
	if err != nil {
		sc.State, sc.Error = "unreadable", err.Error()
		return sc, nil
	}
	if doc == nil {
		return sc, nil
	}
	sc.State = "present"
	entries, err := Parse(doc)
	if err != nil {
		// OpenCode loads it all the same: it is someone else's plugin.
		sc.Error = err.Error() + "; session-hooks leaves it alone"
		return sc, nil
	}
	for _, e := range entries {
		sc.Hooks = append(sc.Hooks, wiring.Hook{Event: e.On, Command: e.Command, Timeout: wiring.Seconds(e.Timeout), Ours: true})
	}
	return sc, entries
}

// Wiring is the status in the one shape of every client's.
func (s Status) Wiring() wiring.Status {
	return wiring.Status{SchemaVersion: s.SchemaVersion, Agent: opencode.Adapter.Name, Scopes: s.Scopes, Warnings: s.Warnings}
}

// Rehearsals are the plugin's hooks as doctor runs them, each once, with
// the payload the plugin gives them.
func Rehearsals(st Status, project string) []hookfile.Rehearsal {
	var out []hookfile.Rehearsal
	seen := map[string]bool{}
	for _, scope := range []string{"project", "user"} {
		for _, e := range st.entries[scope] {
			if seen[e.Command] {
				continue
			}
			seen[e.Command] = true
			matcher := protocol.SourceStartup
			if e.On == opencode.Events["init --compact-recovery"] {
				matcher = protocol.SourceCompact
			}
			b, _ := json.Marshal(protocol.SamplePayload(e.Event, matcher, "session-hooks-doctor", project))
			out = append(out, hookfile.Rehearsal{Event: e.On, Command: e.Command, Limit: time.Duration(e.Timeout) * time.Second,
				Payload: b, Check: func([]byte) string { return "" }})
		}
	}
	return out
}
