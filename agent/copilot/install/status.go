package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/tidwall/gjson"
)

// Status is Copilot CLI's wiring of session-hooks: our entries in the
// project's hooks file and in the user's settings, and what would keep
// Copilot CLI from running them.
type Status struct {
	SchemaVersion int
	Scopes        []ScopeStatus
	Warnings      []string
}

// ScopeStatus is one file and our entries in it.
type ScopeStatus struct {
	Scope string
	Path  string
	Found bool
	Error string
	Hooks []Entry
}

// Where says where Copilot CLI keeps what ReadStatus reads.
type Where struct {
	Root     string // the project's root
	Home     string // Copilot CLI's folder (COPILOT_HOME, else ~/.copilot)
	AllowAll bool   // COPILOT_ALLOW_ALL is true here: every folder trusted
}

// ReadStatus reads both scopes and says what is wrong.
func ReadStatus(w Where) Status {
	st := Status{SchemaVersion: facts.SchemaVersion, Scopes: []ScopeStatus{}, Warnings: []string{}}
	wired := map[string][]string{} // event and arguments → the scopes that wire them
	for _, scope := range []string{"project", "user"} {
		path, err := Path(scope, w.Root, w.Home)
		if err != nil {
			st.Warnings = append(st.Warnings, err.Error())
			continue
		}
		sc, js := readScope(scope, path)
		st.Scopes = append(st.Scopes, sc)
		if sc.Error != "" {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s; Copilot CLI will not load it either", path, sc.Error))
			continue
		}
		if gjson.GetBytes(js, "disableAllHooks").Type == gjson.True {
			st.Warnings = append(st.Warnings, path+": disableAllHooks is true, so Copilot CLI runs no hook")
		}
		for _, h := range sc.Hooks {
			key := h.Event + " " + lastWords(h.Command)
			wired[key] = append(wired[key], scope)
		}
	}
	for _, repo := range []string{"settings.json", "settings.local.json"} {
		path := filepath.Join(w.Root, ".github", "copilot", repo)
		b, _ := readFile(path)
		if js, err := hookfile.Parse(b); err == nil && gjson.GetBytes(js, "disableAllHooks").Type == gjson.True {
			st.Warnings = append(st.Warnings, path+": disableAllHooks is true, so Copilot CLI runs no hook here")
		}
	}
	if len(projectWires(wired)) > 0 {
		if t := TrustOf(w.Root, w.Home, w.AllowAll); !t.Trusted {
			st.Warnings = append(st.Warnings, untrustedWarning(w.Root, t))
		}
	}
	var entries []wiring.Entry
	for _, e := range Entries("", false) {
		entries = append(entries, wiring.Entry{Key: e.Event + " " + lastWords(e.Command), Name: e.Event + " → session-hooks" + e.Command})
	}
	st.Warnings = append(st.Warnings, wiring.Coverage(entries, wired, "Copilot CLI", "files", "session-hooks install --agent copilot")...)
	return st
}

func readScope(scope, path string) (ScopeStatus, []byte) {
	sc := ScopeStatus{Scope: scope, Path: path, Hooks: []Entry{}}
	doc, err := readFile(path)
	if err != nil {
		sc.Error = err.Error()
		return sc, nil
	}
	sc.Found = doc != nil
	if doc == nil {
		return sc, nil
	}
	js, err := hookfile.Parse(doc)
	if err != nil {
		sc.Error = err.Error()
		return sc, nil
	}
	gjson.GetBytes(js, "hooks").ForEach(func(event, list gjson.Result) bool {
		for _, h := range list.Array() {
			if cmd := h.Get("bash").Str; IsOurs(cmd) {
				sc.Hooks = append(sc.Hooks, Entry{Event: event.Str, Command: cmd, TimeoutSec: int(h.Get("timeoutSec").Int())})
			}
		}
		return true
	})
	return sc, js
}

// lastWords is a command's subcommand and flags, after "--agent copilot".
func lastWords(cmd string) string {
	if _, after, ok := strings.Cut(cmd, "--agent copilot "); ok {
		return after
	}
	return cmd
}

// defaultTimeout is Copilot CLI's timeout for an entry without one.
const defaultTimeout = 30 * time.Second

// Rehearsals are our entries as doctor runs them, each once, with the payload Copilot CLI
// gives them (testdata/copilot-1.0.102/payloads) for a session with no
// events yet.
func Rehearsals(st Status, project string) []hookfile.Rehearsal {
	var out []hookfile.Rehearsal
	seen := map[string]bool{}
	for _, sc := range st.Scopes {
		for _, h := range sc.Hooks {
			if seen[h.Event+" "+h.Command] {
				continue
			}
			seen[h.Event+" "+h.Command] = true
			limit := defaultTimeout
			if h.TimeoutSec > 0 {
				limit = time.Duration(h.TimeoutSec) * time.Second
			}
			out = append(out, hookfile.Rehearsal{Event: h.Event, Command: h.Command, Limit: limit, Payload: samplePayload(h.Event, project), Check: checkReply(h.Event)})
		}
	}
	return out
}

func samplePayload(event, project string) []byte {
	p := map[string]any{"sessionId": "session-hooks-doctor", "cwd": project, "timestamp": time.Now().UnixMilli()}
	switch event {
	case "sessionStart":
		p["source"], p["initialPrompt"] = "new", "session-hooks doctor"
	case "userPromptSubmitted":
		p["prompt"] = "session-hooks doctor"
	case "postToolUse":
		p["toolName"], p["toolArgs"] = "bash", map[string]any{"command": "true"}
		p["toolResult"] = map[string]any{"resultType": "success", "textResultForLlm": ""}
	case "preCompact":
		p["trigger"], p["customInstructions"] = "manual", ""
	case "sessionEnd":
		p["reason"] = "complete"
	case "agentStop":
		p["stopReason"], p["stop_hook_active"] = "end_turn", false
	}
	b, _ := json.Marshal(p)
	return b
}

// checkReply says what is wrong with an output as Copilot CLI reads it:
// nothing at all, or JSON (additionalContext where the event reads one;
// a decision where agentStop reads one).
func checkReply(event string) func([]byte) string {
	return func(stdout []byte) string {
		if len(bytes.TrimSpace(stdout)) == 0 {
			return ""
		}
		r := gjson.ParseBytes(stdout)
		if !gjson.ValidBytes(stdout) || !r.IsObject() {
			return "its output is not JSON; Copilot CLI gives the model none of it"
		}
		switch event {
		case "sessionStart", "userPromptSubmitted", "postToolUse":
			if r.Get("additionalContext").Type != gjson.String {
				return "its JSON has no additionalContext, the one field Copilot CLI gives the model"
			}
		case "agentStop":
			if d := r.Get("decision"); d.Exists() && d.Str != "block" {
				return fmt.Sprintf("its decision %q is not one Copilot CLI reads (block)", d.Str)
			}
		}
		return ""
	}
}

// Wiring is the status in the one shape of every agent's (docs/json.md).
func (s Status) Wiring() wiring.Status {
	out := wiring.Status{SchemaVersion: s.SchemaVersion, Agent: "copilot", Scopes: []wiring.Scope{}, Warnings: s.Warnings}
	for _, sc := range s.Scopes {
		state := "absent"
		switch {
		case sc.Error != "":
			state = "unreadable"
		case sc.Found:
			state = "present"
		}
		w := wiring.Scope{Scope: sc.Scope, Path: sc.Path, State: state, Error: sc.Error, Hooks: []wiring.Hook{}}
		for _, h := range sc.Hooks {
			w.Hooks = append(w.Hooks, wiring.Hook{Event: h.Event, Command: h.Command, Timeout: wiring.Seconds(h.TimeoutSec), Ours: true})
		}
		out.Scopes = append(out.Scopes, w)
	}
	return out
}

// projectWires are the entries of ours the repository's hooks file wires.
func projectWires(wired map[string][]string) []string {
	var out []string
	for key, scopes := range wired {
		if slices.Contains(scopes, "project") {
			out = append(out, key)
		}
	}
	return out
}
