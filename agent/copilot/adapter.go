package copilot

import (
	"context"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is GitHub Copilot CLI's side of the contract: its session file
// is the session's events, written when the process exits; its payloads
// are camelCase and do not name their event; it reads a hook's context
// only as JSON, in its own shape; it has no event after a compaction, and
// keeps only the latest start's context.
var Adapter = protocol.Agent{Name: "copilot", Label: "GitHub Copilot CLI", Encode: encode, LateRecovery: true,
	CompactHookCompacts: true, StartReplacesStart: true, Events: Events,
	Versions: "1.0.102",
	Gets: "the brief at a new or resumed session; after a compaction, the recovery with the next tool result or prompt (Copilot has no event right after one); " +
		"the handoff; the long-running checks on agentStop (`--long-running`)",
	NotYet:     "—",
	Tags:       []string{"environment_context", "system_reminder", "system_notification", "current_datetime"},
	ParseInput: parseInput,
	Read:       Read,
	Injected:   func(context.Context, string, transcript.Options) ([]string, error) { return nil, nil },
}

// parseInput reads Copilot's payload into the contract's.
func parseInput(b []byte, getenv func(string) string) (protocol.Input, []string) {
	p, notes := ParsePayload(b, Home(getenv))
	source := p.Source
	if source == "new" {
		source = protocol.SourceStartup
	}
	in := protocol.Input{SessionID: p.SessionID, Cwd: p.Cwd, TranscriptPath: p.TranscriptPath, Source: source,
		Trigger: p.Trigger, Reason: p.Reason, Prompt: p.Prompt, ToolName: p.ToolName, StopHookActive: p.StopHookActive}
	if p.ToolName != "" {
		in.Event = "postToolUse" // the recovery's second event: a tool's result
	}
	return in, notes
}

// encode is a reply as Copilot reads it: a start's or a prompt's text in
// its own context shape, a held stop and a context added after a tool in
// the shared shapes.
func encode(event string, r protocol.Reply) string {
	switch {
	case r.Block, r.Context:
		return protocol.SharedEncode(event, r)
	case r.Empty():
		return ""
	}
	return Reply(event, r.Text)
}
