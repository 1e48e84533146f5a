// Package protocol is the hook contract every client implements through
// its adapter: the events the handlers answer, the payload they read, the
// replies they give, the output limit, and how a client's session file is
// read. The handlers (package hooks) and the event table speak only this;
// each client's folder under agent/ says how its own hooks map onto it.
//
// The payload's and the replies' shapes are those most clients share
// (Claude Code set them; Gemini CLI, Codex CLI, Qwen Code and Factory
// Droid read and write the same fields): a client whose shapes differ
// decodes and encodes its own (Agent.ParseInput, Agent.Encode).
package protocol

import (
	"encoding/json"
	"strings"

	"github.com/session-hooks/session-hooks/transcript"
)

// Events, as the event table's rows name them (and hook_event_name does
// in the shared payload).
const (
	SessionStart = "SessionStart"
	PreCompact   = "PreCompact"
	PostCompact  = "PostCompact"
	SessionEnd   = "SessionEnd"
	Stop         = "Stop"
	PostToolUse  = "PostToolUse"
	// PostToolBatch fires once after a batch of parallel tool calls, with
	// every call in tool_calls.
	PostToolBatch = "PostToolBatch"
	// PostModelSwitch fires after the model changes (payload from_model,
	// to_model, context_tokens); it may return additionalContext.
	PostModelSwitch = "PostModelSwitch"
)

// Sources of a SessionStart: why the session (or its context) began.
const (
	SourceStartup = "startup"
	SourceResume  = "resume"
	SourceClear   = "clear"
	SourceCompact = "compact"
	SourceFork    = "fork"
)

// TriggerManual is a pre-compaction payload's trigger when the user asked
// for the compaction.
const TriggerManual = "manual"

// DefaultBudget is what a run prints at most for a client that names no
// limit of its own: under the 10,000 characters the strictest client
// injects whole, with some margin.
const DefaultBudget = 9500

// Reply is what a handler answers, before the client's adapter encodes
// it for stdout.
type Reply struct {
	// Text is what the model is to read (a Stop's reason when Block).
	Text string
	// Block holds a stop: the agent goes on, with Text as the reason.
	Block bool
	// Context says that Text is context added to the turn (after a tool,
	// a model switch, a stop let through), which a client reads only as
	// a structured reply; otherwise it is a start's or a snapshot's text.
	Context bool
	// Event is the client's event the context answers, when it is not the
	// payload's.
	Event string
	// Data is --format json's facts (or its failure): printed as they
	// are, never encoded.
	Data bool
}

// Say is a reply of plain text; Facts one of --format json's data.
func Say(text string) Reply   { return Reply{Text: text} }
func Facts(data string) Reply { return Reply{Text: data, Data: true} }

// AddContext is context added to the turn of event ("" for the payload's).
func AddContext(event, text string) Reply { return Reply{Text: text, Context: true, Event: event} }

// Hold is a Stop's reply that makes the agent go on, with reason.
func Hold(reason string) Reply { return Reply{Text: reason, Block: true} }

// HoldHeading begins every reason a held stop gives: the readers know it
// when a client sends it back as a request (transcript.IsHoldReason).
const HoldHeading = transcript.HoldHeading

// IsHoldReason says whether a request is a held stop's reason.
func IsHoldReason(request string) bool { return transcript.IsHoldReason(request) }

// Empty says whether the reply prints nothing.
func (r Reply) Empty() bool { return r.Text == "" && !r.Block }

// BlockJSON is the shared shape of a held stop: {"decision":"block",
// "reason":…}; the client shows reason as the stop hook's feedback.
func BlockJSON(reason string) string {
	return marshal(map[string]string{"decision": "block", "reason": reason})
}

// ContextJSON is the shared shape of context added at event:
// {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}.
func ContextJSON(event, text string) string {
	return marshal(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": event, "additionalContext": text}})
}

// IsJSON says whether an output is read as JSON, as the clients read it:
// it starts with '{'.
func IsJSON(out string) bool { return len(out) > 0 && out[0] == '{' }

func marshal(v any) string {
	b, _ := json.Marshal(v) // maps of strings always marshal
	return string(b)
}

// SamplePayload is a payload of the shared shape for event, for a run
// that must not change anything (doctor): a Stop that a stop hook already
// blocked, so that it never blocks.
func SamplePayload(event, matcher, sessionID, cwd string) map[string]any {
	p := map[string]any{"session_id": sessionID, "cwd": cwd, "hook_event_name": event, "transcript_path": ""}
	first, _, _ := strings.Cut(matcher, "|")
	switch event {
	case SessionStart:
		p["source"] = first
	case PreCompact, PostCompact:
		p["trigger"] = "manual"
		if event == PostCompact {
			p["compact_summary"] = ""
		}
	case SessionEnd:
		p["reason"] = "other"
	case Stop:
		p["stop_hook_active"] = true
	case PostToolUse:
		p["tool_name"] = first
	case PostToolBatch:
		p["tool_calls"] = []map[string]any{{"tool_name": "Write", "tool_input": map[string]any{}, "tool_use_id": "doctor"}}
	}
	return p
}
