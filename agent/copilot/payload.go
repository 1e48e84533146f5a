package copilot

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/jsondepth"
)

// Events are Copilot CLI's hooks for the rows of the event table they
// answer, by the row's arguments, the first its name for the row: the
// brief at a session's start (new or resumed); the recovery with the first
// prompt after a compaction (there is no event after one), or with the
// first tool result after it when the compaction came inside a run (its
// automatic one, between tool calls); the snapshot before a compaction;
// the handoff at the end; and the long-running checks when the agent
// stops.
var Events = map[string][]string{
	"init":                    {"sessionStart"},
	"init --compact-recovery": {"userPromptSubmitted", "postToolUse"},
	"pre-compact":             {"preCompact"},
	"end":                     {"sessionEnd"},
	"stop":                    {"agentStop"},
}

// Payload is what Copilot CLI writes on a hook's stdin: camelCase, and
// without the event's name (the command it runs says which it is).
// sessionStart, userPromptSubmitted and sessionEnd carry no transcript
// path: TranscriptPath is then where the session's events are.
type Payload struct {
	SessionID, Cwd, TranscriptPath string
	Source                         string // sessionStart: new, resume (startup in the SDK's types)
	Trigger                        string // preCompact: manual, auto
	Reason                         string // sessionEnd: complete, error, abort, timeout, user_exit
	Prompt                         string // userPromptSubmitted: what the user typed
	ToolName                       string // postToolUse: the tool that ran
	StopHookActive                 bool   // agentStop: a stop hook already blocked once
}

// ParsePayload decodes a payload; a field of the wrong type is left empty
// with a note. home is Copilot CLI's directory (COPILOT_HOME, else
// ~/.copilot), where a payload without a transcript path finds it.
func ParsePayload(b []byte, home string) (Payload, []string) {
	if len(strings.TrimSpace(string(b))) == 0 {
		return Payload{}, nil
	}
	if err := jsondepth.Check(b, jsondepth.Max); err != nil {
		return Payload{}, []string{"the hook input on stdin " + err.Error() + "; continuing without it"}
	}
	root := gjson.ParseBytes(b)
	if !gjson.ValidBytes(b) || !root.IsObject() {
		return Payload{}, []string{"the hook input on stdin is not a JSON object; continuing without it"}
	}
	var notes []string
	str := func(field string) string {
		v := root.Get(field)
		if v.Exists() && v.Type != gjson.String && v.Type != gjson.Null {
			notes = append(notes, fmt.Sprintf("ignored %s in the hook input: expected a string", field))
			return ""
		}
		return v.Str
	}
	p := Payload{SessionID: str("sessionId"), Cwd: str("cwd"), TranscriptPath: str("transcriptPath"),
		Source: str("source"), Trigger: str("trigger"), Reason: str("reason"), Prompt: str("prompt"), ToolName: str("toolName")}
	for _, f := range []string{"stop_hook_active", "stopHookActive"} {
		if v := root.Get(f); v.IsBool() {
			p.StopHookActive = p.StopHookActive || v.Bool()
		}
	}
	if p.TranscriptPath == "" {
		p.TranscriptPath = EventsPath(home, p.SessionID)
	}
	return p, notes
}

// sessionID is what Copilot CLI names a session (a UUID): a payload's id
// that is anything else names no file of ours to read.
var sessionID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`) })

// EventsPath is where the session's events are kept; "" when home is not
// an absolute path or the id is not a session's.
func EventsPath(home, id string) string {
	if !filepath.IsAbs(home) || !sessionID().MatchString(id) {
		return ""
	}
	return filepath.Join(home, "session-state", id, "events.jsonl")
}

// Home is Copilot CLI's directory: COPILOT_HOME, else .copilot in the
// user's home (HOME, USERPROFILE on Windows); "" when none is an absolute
// path.
func Home(getenv func(string) string) string {
	if h := getenv("COPILOT_HOME"); filepath.IsAbs(h) {
		return h
	}
	for _, v := range []string{"HOME", "USERPROFILE"} {
		if h := getenv(v); filepath.IsAbs(h) {
			return filepath.Join(h, ".copilot")
		}
	}
	return ""
}

// Reply is how a hook's context reaches the model: {"additionalContext":
// …} of sessionStart (a block of its own before the conversation),
// userPromptSubmitted (inside the prompt's message) and postToolUse
// (after the tool's result, as "Additional guidance from postToolUse
// hooks"). The other events read no context: nothing is printed.
func Reply(event, text string) string {
	if event != "sessionStart" && event != "userPromptSubmitted" && event != "postToolUse" {
		return ""
	}
	b, _ := json.Marshal(map[string]string{"additionalContext": text})
	return string(b)
}
