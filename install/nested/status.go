package nested

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/tidwall/gjson"
)

// Status is the client's wiring of session-hooks: our entries in each
// scope's settings.json, and what is wrong with them.
type Status struct {
	SchemaVersion int
	Scopes        []wiring.Scope
	Warnings      []string
	agent         string
}

// ReadStatus reads both scopes' settings (dir is the project, or a
// directory in it) and says what is wrong.
func (c Client) ReadStatus(dir, home string) Status {
	st := Status{SchemaVersion: facts.SchemaVersion, Scopes: []wiring.Scope{}, Warnings: []string{}, agent: c.Agent.Name}
	wired := map[string][]string{} // event and arguments → the scopes that wire them
	below := ""
	if c.StartDirOnly {
		below = contract.BelowTop(dir, c.Agent.Label, c.Dir+"/settings.json")
	}
	for _, scope := range []string{"project", "user"} {
		path, _ := c.Path(scope, dir, func() (string, error) { return home, nil })
		sc := readScope(scope, path)
		st.Scopes = append(st.Scopes, sc)
		if sc.Error != "" {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s; %s will not load it either", path, sc.Error, c.Agent.Label))
			continue
		}
		if scope == "project" && below != "" {
			continue // the client started here does not read them
		}
		for _, h := range sc.Hooks {
			key := c.entryKey(h.Event, h.Matcher, h.Command)
			wired[key] = append(wired[key], scope)
		}
	}
	var entries []wiring.Entry
	for _, e := range c.Entries("", false) {
		entries = append(entries, wiring.Entry{Key: c.entryKey(e.Event, e.Matcher, e.Command), Name: e.Event + " → session-hooks" + e.Command})
	}
	missing := wiring.Coverage(entries, wired, c.Agent.Label, "settings", "session-hooks --agent "+c.Agent.Name+" install")
	if below != "" && len(missing) > 0 {
		missing = []string{below} // installing here would not help: it says what does
	}
	st.Warnings = append(st.Warnings, missing...)
	return st
}

// entryKey tells an entry apart: its event, its matcher (init and its
// recovery are both SessionStart's) and its subcommand with flags.
func (c Client) entryKey(event, matcher, cmd string) string {
	if _, after, ok := strings.Cut(cmd, "--agent "+c.Agent.Name+" "); ok {
		cmd = after
	}
	return event + " [" + matcher + "] " + strings.TrimSpace(cmd)
}

func readScope(scope, path string) wiring.Scope {
	sc := wiring.Scope{Scope: scope, Path: path, State: "absent", Hooks: []wiring.Hook{}}
	doc, err := hookfile.ReadFile(path)
	if err != nil {
		sc.State, sc.Error = "unreadable", err.Error()
		return sc
	}
	if doc != nil {
		sc.State = "present"
	}
	js, err := hookfile.Parse(doc)
	if err != nil {
		sc.State, sc.Error = "unreadable", err.Error()
		return sc
	}
	for _, h := range hookfile.Wired(js) {
		if hookfile.IsOurs(h.Event, h.Command, "") {
			sc.Hooks = append(sc.Hooks, wiring.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: wiring.Seconds(h.Timeout), Ours: true})
		}
	}
	return sc
}

// Wiring is the status in the one shape of every client's.
func (s Status) Wiring() wiring.Status {
	return wiring.Status{SchemaVersion: s.SchemaVersion, Agent: s.agent, Scopes: s.Scopes, Warnings: s.Warnings}
}

// Rehearsals are the entries of ours as doctor runs them, each once, with
// the payload the client gives them (the shared shape, as recorded in
// testdata/<client>-<version>/payloads).
func (c Client) Rehearsals(st Status, project string) []hookfile.Rehearsal {
	var out []hookfile.Rehearsal
	seen := map[string]bool{}
	for _, sc := range st.Scopes {
		for _, h := range sc.Hooks {
			if seen[h.Event+" "+h.Command] {
				continue
			}
			seen[h.Event+" "+h.Command] = true
			limit := c.DefaultTimeout
			if h.Timeout != nil {
				limit = time.Duration(*h.Timeout * float64(time.Second))
			}
			b, _ := json.Marshal(protocol.SamplePayload(h.Event, h.Matcher, "session-hooks-doctor", project))
			out = append(out, hookfile.Rehearsal{Event: h.Event, Command: h.Command, Limit: limit, Payload: b, Check: c.checkReply})
		}
	}
	return out
}

// checkReply says what is wrong with a hook's output as the client reads
// it: a context only as JSON.
func (c Client) checkReply(stdout []byte) string {
	if len(bytes.TrimSpace(stdout)) == 0 || gjson.ValidBytes(stdout) {
		return ""
	}
	return "its output is not JSON, and " + c.Agent.Label + " reads a hook's context only as JSON"
}
