package install

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"
	"unicode/utf8"

	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/agent/codex"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Status is what Codex's wiring of session-hooks is: each entry of ours in
// hooks.json, and whether Codex trusts it (Codex skips an untrusted hook
// silently).
type Status struct {
	SchemaVersion int
	HooksFile     string
	Hooks         []HookStatus
	Warnings      []string
}

// HookStatus is one entry of ours; Trust is what Codex reports (trusted,
// untrusted, modified…), or "unknown" when Codex could not be asked.
type HookStatus struct {
	Event   string
	Matcher string
	Command string
	Trust   string
	// Timeout is the entry's, in seconds; 0 when it sets none.
	Timeout int
}

// ReadStatus reads hooks.json and asks Codex which entries it trusts.
func ReadStatus(ctx context.Context, opt Options) (Status, error) {
	path := filepath.Join(opt.Home, "hooks.json")
	st := Status{SchemaVersion: facts.SchemaVersion, HooksFile: path, Hooks: []HookStatus{}, Warnings: []string{}}
	doc, err := hookfile.ReadFile(path)
	if err != nil {
		return st, err
	}
	js, err := hookfile.Parse(doc)
	if err != nil {
		return st, fmt.Errorf("cannot read %s: %v", path, err)
	}
	trust := map[string]string{}
	handlers, lerr := ListHandlers(ctx, opt.Codex, opt.Home, opt.Dir)
	for _, h := range handlers {
		trust[h.Key] = h.TrustStatus
	}
	wired := map[string]bool{}
	for _, w := range hookfile.Wired(js) {
		if !hookfile.IsOurs(w.Event, w.Command, "") {
			continue
		}
		h := HookStatus{Event: w.Event, Matcher: w.Matcher, Command: w.Command, Trust: "unknown", Timeout: w.Timeout}
		if lerr == nil {
			h.Trust = trust[Key(path, w.Event, w.Group, w.Index)]
			if h.Trust == "" {
				h.Trust = "not listed"
			}
		}
		if h.Trust != "trusted" && lerr == nil {
			st.Warnings = append(st.Warnings, fmt.Sprintf("Codex skips %s until it is trusted (%s): run session-hooks --agent codex install", describe(h), h.Trust))
		}
		st.Hooks = append(st.Hooks, h)
		wired[w.Event+" "+w.Matcher+" "+lastWords(w.Command)] = true
	}
	for _, e := range Entries("", false) {
		if !wired[e.Event+" "+e.Matcher+" "+lastWords(e.Command)] {
			st.Warnings = append(st.Warnings, "not wired: "+describe(HookStatus{Event: e.Event, Matcher: e.Matcher, Command: "session-hooks" + e.Command}))
		}
	}
	if lerr != nil {
		st.Warnings = append(st.Warnings, "Codex was not asked which hooks it trusts: "+lerr.Error())
	}
	return st, nil
}

// lastWords is a command's subcommand and flags, after "--agent codex".
func lastWords(cmd string) string {
	if _, after, ok := strings.Cut(cmd, "--agent codex "); ok {
		return after
	}
	return cmd
}

func describe(h HookStatus) string {
	event := h.Event
	if h.Matcher != "" {
		event += " (" + h.Matcher + ")"
	}
	return event + " → " + h.Command
}

// Codex's limits on a hook: SessionEnd's run (it does not wait longer),
// the output it passes on whole, and the timeout of an entry without one
// (taken as Claude Code's).
const (
	sessionEndLimit = 3 * time.Second
	outputLimit     = 10000
	defaultTimeout  = 600 * time.Second
)

// Rehearsals are the entries of ours as doctor runs them: Codex's payload
// (Claude Code's shape), the entry's timeout (SessionEnd's 3 s at most),
// and an output Codex passes on whole.
func Rehearsals(st Status, project string) []hookfile.Rehearsal {
	var out []hookfile.Rehearsal
	for _, h := range st.Hooks {
		limit := defaultTimeout
		if h.Timeout > 0 {
			limit = time.Duration(h.Timeout) * time.Second
		}
		if h.Event == codex.Events["end"] {
			limit = min(limit, sessionEndLimit)
		}
		b, _ := json.Marshal(samplePayload(h.Event, h.Matcher, project))
		out = append(out, hookfile.Rehearsal{Event: h.Event, Command: h.Command, Limit: limit, Payload: b,
			Check: func(stdout []byte) string {
				if n := utf8.RuneCount(stdout); n > outputLimit {
					return fmt.Sprintf("it printed %d characters; Codex cuts a hook's output past %d", n, outputLimit)
				}
				return ""
			}})
	}
	return out
}

// samplePayload is what Codex gives a hook of event (docs/agents.md:
// Claude Code's fields, a turn id for turn events), for a session with no
// rollout yet.
func samplePayload(event, matcher, project string) map[string]any {
	p := map[string]any{"session_id": "session-hooks-doctor", "cwd": project, "hook_event_name": event, "transcript_path": nil, "model": "gpt-5"}
	switch event {
	case "SessionStart":
		p["source"], _, _ = strings.Cut(matcher, "|")
	case "PreCompact":
		p["trigger"], p["turn_id"] = "manual", "doctor"
	case "SessionEnd":
		p["reason"] = "other"
	case "Stop":
		p["stop_hook_active"], p["turn_id"], p["last_assistant_message"] = true, "doctor", ""
	}
	return p
}

// Wiring is the status in the one shape of every agent's (docs/json.md):
// hooks.json is Codex's one scope, user.
func (s Status) Wiring() wiring.Status {
	sc := wiring.Scope{Scope: "user", Path: s.HooksFile, State: "present", Hooks: []wiring.Hook{}}
	for _, h := range s.Hooks {
		sc.Hooks = append(sc.Hooks, wiring.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: wiring.Seconds(h.Timeout),
			Ours: true, Trust: h.Trust})
	}
	if _, err := os.Stat(s.HooksFile); err != nil {
		sc.State = "absent"
	}
	return wiring.Status{SchemaVersion: s.SchemaVersion, Agent: "codex", Scopes: []wiring.Scope{sc}, Warnings: s.Warnings}
}
