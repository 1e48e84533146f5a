package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/agent/gemini"
	"github.com/session-hooks/session-hooks/hooks/facts"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/tidwall/gjson"
)

// Status is Gemini CLI's wiring of session-hooks: our entries in each
// scope's settings.json, and what would keep Gemini CLI from running
// them (hooks turned off, a hook disabled by name, a project folder Gemini
// CLI does not trust, a timeout given in seconds).
type Status struct {
	SchemaVersion int
	Scopes        []ScopeStatus
	Warnings      []string
}

// ScopeStatus is one settings file and our entries in it.
type ScopeStatus struct {
	Scope string
	Path  string
	Found bool
	Error string
	Hooks []HookStatus
}

// HookStatus is one entry of ours; its timeout is in milliseconds (0 when
// none is set: Gemini CLI's default, 60 s).
type HookStatus struct {
	Event     string
	Command   string
	TimeoutMS int
}

// Where says where Gemini CLI keeps what ReadStatus reads.
type Where struct {
	Dir  string // the project, or a directory in it
	Home string // the user's home directory
	// TrustWorkspace is GEMINI_CLI_TRUST_WORKSPACE: "true" trusts any
	// folder.
	TrustWorkspace string
}

// minTimeoutMS is the least timeout that is plausibly milliseconds: a
// smaller one was most likely meant as seconds (Claude Code's unit).
const minTimeoutMS = 1000

// ReadStatus reads both scopes' settings and says what is wrong.
func ReadStatus(w Where) Status {
	st := Status{SchemaVersion: facts.SchemaVersion, Scopes: []ScopeStatus{}, Warnings: []string{}}
	wired := map[string][]string{} // event and arguments → the scopes that wire them
	below := contract.BelowTop(w.Dir, gemini.Adapter.Label, ".gemini/settings.json")
	for _, scope := range []string{"project", "user"} {
		path, _ := Path(scope, w.Dir, func() (string, error) { return w.Home, nil })
		sc, js := readScope(scope, path)
		st.Scopes = append(st.Scopes, sc)
		if sc.Error != "" {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s; Gemini CLI will not load it either", path, sc.Error))
			continue
		}
		st.Warnings = append(st.Warnings, offSwitches(path, js, sc.Hooks)...)
		if scope == "project" && below != "" {
			continue // Gemini CLI started here does not read them
		}
		for _, h := range sc.Hooks {
			key := h.Event + " " + lastWords(h.Command)
			wired[key] = append(wired[key], scope)
			if h.TimeoutMS > 0 && h.TimeoutMS < minTimeoutMS {
				st.Warnings = append(st.Warnings, fmt.Sprintf("%s → %s: timeout %d is in milliseconds for Gemini CLI, which stops the hook after %d ms", h.Event, h.Command, h.TimeoutMS, h.TimeoutMS))
			}
		}
		if scope == "project" && len(sc.Hooks) > 0 && w.TrustWorkspace != "true" && !trusted(filepath.Dir(filepath.Dir(path)), w.Home) {
			st.Warnings = append(st.Warnings, fmt.Sprintf("Gemini CLI runs a project's hooks only in a folder it trusts, and %s is not trusted in %s: trust it when Gemini CLI asks, or install with --scope user",
				filepath.Dir(filepath.Dir(path)), filepath.Join(w.Home, ".gemini", "trustedFolders.json")))
		}
	}
	var entries []wiring.Entry
	for _, e := range Entries("", false) {
		entries = append(entries, wiring.Entry{Key: e.Event + " " + lastWords(e.Command), Name: e.Event + " → session-hooks" + e.Command})
	}
	missing := wiring.Coverage(entries, wired, "Gemini CLI", "settings", "session-hooks --agent gemini install")
	if below != "" && len(missing) > 0 {
		missing = []string{below} // installing here would not help: it says what does
	}
	st.Warnings = append(st.Warnings, missing...)
	return st
}

func readScope(scope, path string) (ScopeStatus, []byte) {
	sc := ScopeStatus{Scope: scope, Path: path, Hooks: []HookStatus{}}
	doc, err := hookfile.ReadFile(path)
	if err != nil {
		sc.Error = err.Error()
		return sc, nil
	}
	sc.Found = doc != nil
	js, err := hookfile.Parse(doc)
	if err != nil {
		sc.Error = err.Error()
		return sc, nil
	}
	for _, h := range hookfile.Wired(js) {
		if hookfile.IsOurs(h.Event, h.Command, "") {
			sc.Hooks = append(sc.Hooks, HookStatus{Event: h.Event, Command: h.Command, TimeoutMS: h.Timeout})
		}
	}
	return sc, js
}

// offSwitches are the settings of a file that keep Gemini CLI from
// running our hooks: hooksConfig.enabled false, or one of ours listed by
// its command in hooksConfig.disabled.
func offSwitches(path string, js []byte, ours []HookStatus) []string {
	var out []string
	if e := gjson.GetBytes(js, "hooksConfig.enabled"); e.Exists() && e.Type == gjson.False {
		out = append(out, path+": hooksConfig.enabled is false, so Gemini CLI runs no hook")
	}
	var disabled []string
	for _, d := range gjson.GetBytes(js, "hooksConfig.disabled").Array() {
		disabled = append(disabled, d.String())
	}
	for _, h := range ours {
		if slices.Contains(disabled, h.Command) {
			out = append(out, fmt.Sprintf("%s: hooksConfig.disabled lists %q, so Gemini CLI does not run it", path, h.Command))
		}
	}
	return out
}

// lastWords is a command's subcommand and flags, after "--agent gemini".
func lastWords(cmd string) string {
	if _, after, ok := strings.Cut(cmd, "--agent gemini "); ok {
		return after
	}
	return cmd
}

// trusted says whether Gemini CLI trusts the folder dir, as it decides
// from ~/.gemini/trustedFolders.json: the longest rule that holds dir
// wins; TRUST_PARENT trusts the rule's parent.
func trusted(dir, home string) bool {
	b, err := hookfile.ReadFile(filepath.Join(home, ".gemini", "trustedFolders.json"))
	if err != nil || b == nil {
		return false
	}
	js, err := hookfile.Parse(b)
	if err != nil {
		return false
	}
	best, level := -1, ""
	gjson.ParseBytes(js).ForEach(func(rule, l gjson.Result) bool {
		p := filepath.Clean(rule.String())
		if l.String() == "TRUST_PARENT" {
			p = filepath.Dir(p)
		}
		if rel, err := filepath.Rel(p, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && len(rule.String()) > best {
			best, level = len(rule.String()), l.String()
		}
		return true
	})
	return level == "TRUST_FOLDER" || level == "TRUST_PARENT"
}

// geminiDefaultTimeout is Gemini CLI's timeout for an entry without one.
const geminiDefaultTimeout = 60 * time.Second

// samplePayload is what Gemini CLI gives a hook of event, as it was
// recorded (testdata/gemini-0.61.0/payloads), for a session with no chat.
func samplePayload(event, project string) []byte {
	p := map[string]any{"session_id": "session-hooks-doctor", "transcript_path": "", "cwd": project,
		"hook_event_name": event, "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
	switch event {
	case "SessionStart":
		p["source"] = "startup"
	case "BeforeAgent":
		p["prompt"] = "session-hooks doctor"
	case "PreCompress":
		p["trigger"] = "auto"
	case "SessionEnd":
		p["reason"] = "exit"
	}
	b, _ := json.Marshal(p)
	return b
}

// Rehearsals are the entries of ours as doctor runs them: Gemini CLI's
// payload and timeout, and an output it reads (nothing, or JSON with
// hookSpecificOutput.additionalContext: Gemini CLI shows plain text to the
// person only).
func Rehearsals(st Status, project string) []hookfile.Rehearsal {
	var out []hookfile.Rehearsal
	seen := map[string]bool{}
	for _, sc := range st.Scopes {
		for _, h := range sc.Hooks {
			if seen[h.Event+" "+h.Command] {
				continue
			}
			seen[h.Event+" "+h.Command] = true
			limit := geminiDefaultTimeout
			if h.TimeoutMS > 0 {
				limit = time.Duration(h.TimeoutMS) * time.Millisecond
			}
			out = append(out, hookfile.Rehearsal{Event: h.Event, Command: h.Command, Limit: limit,
				Payload: samplePayload(h.Event, project), Check: checkReply})
		}
	}
	return out
}

// checkReply says what is wrong with a hook's output as Gemini CLI reads
// it.
func checkReply(stdout []byte) string {
	if len(bytes.TrimSpace(stdout)) == 0 {
		return ""
	}
	r := gjson.ParseBytes(stdout)
	if !gjson.ValidBytes(stdout) || !r.IsObject() {
		return "its output is not JSON; Gemini CLI shows it to the person, and the model never reads it"
	}
	if c := r.Get("hookSpecificOutput.additionalContext"); c.Type != gjson.String {
		return "its JSON has no hookSpecificOutput.additionalContext, the one field Gemini CLI gives the model"
	}
	return ""
}

// Wiring is the status in the one shape of every agent's (docs/json.md);
// timeouts in seconds.
func (s Status) Wiring() wiring.Status {
	out := wiring.Status{SchemaVersion: s.SchemaVersion, Agent: "gemini", Scopes: []wiring.Scope{}, Warnings: s.Warnings}
	for _, sc := range s.Scopes {
		w := wiring.Scope{Scope: sc.Scope, Path: sc.Path, State: state(sc.Found, sc.Error), Error: sc.Error, Hooks: []wiring.Hook{}}
		for _, h := range sc.Hooks {
			var timeout *float64
			if h.TimeoutMS > 0 {
				t := float64(h.TimeoutMS) / 1000
				timeout = &t
			}
			w.Hooks = append(w.Hooks, wiring.Hook{Event: h.Event, Command: h.Command, Timeout: timeout, Ours: true})
		}
		out.Scopes = append(out.Scopes, w)
	}
	return out
}

// state is a scope's: unreadable with an error, else present or absent.
func state(found bool, err string) string {
	switch {
	case err != "":
		return "unreadable"
	case found:
		return "present"
	}
	return "absent"
}
