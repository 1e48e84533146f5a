package claude

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Hook events, as hook_event_name and settings.json name them.
const (
	SessionStart = "SessionStart"
	PreCompact   = "PreCompact"
	PostCompact  = "PostCompact"
	SessionEnd   = "SessionEnd"
	Stop         = "Stop"
	PostToolUse  = "PostToolUse"
	// PostToolBatch fires once after a batch of parallel tool calls
	// (2.1.330 has it), with every call in tool_calls.
	PostToolBatch = "PostToolBatch"
	// PostModelSwitch fires after the model changes (payload from_model,
	// to_model, context_tokens); it may return additionalContext.
	PostModelSwitch = "PostModelSwitch"
)

// SessionStart sources (the matcher compares them): fork is reported
// instead of resume for a forked session since 2.1.214.
const (
	SourceStartup = "startup"
	SourceResume  = "resume"
	SourceClear   = "clear"
	SourceCompact = "compact"
	SourceFork    = "fork"
)

// Limit is the most Claude Code injects: a longer output (plain or
// additionalContext) is replaced by a 2 KB preview and a file path.
// Budget is what session-hooks prints at most, with some margin.
const (
	Limit  = 10000
	Budget = 9500
)

// Environment variables Claude Code sets for hooks, or reads itself.
const (
	EnvProjectDir = "CLAUDE_PROJECT_DIR" // the directory Claude Code was launched in
	EnvConfigDir  = "CLAUDE_CONFIG_DIR"  // its configuration directory, when not ~/.claude
	// EnvDisable1M, set, holds every 1M-token model at 200,000 tokens.
	EnvDisable1M = "CLAUDE_CODE_DISABLE_1M_CONTEXT"
	EnvRemote    = "CLAUDE_CODE_REMOTE" // "true" in Claude Code on the web
)

// Block is a Stop hook's reply that makes the agent go on, with reason as
// its feedback ("Stop hook feedback:\n" + reason).
func Block(reason string) string {
	return marshal(map[string]string{"decision": "block", "reason": reason})
}

// AdditionalContext is the reply that adds text to the conversation after
// a tool result (PostToolUse) or at a session start.
func AdditionalContext(event, text string) string {
	return marshal(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": event, "additionalContext": text}})
}

// IsJSONReply says whether Claude Code reads an output as JSON: it does
// when the output starts with '{'.
func IsJSONReply(out string) bool { return len(out) > 0 && out[0] == '{' }

func marshal(v any) string {
	b, _ := json.Marshal(v) // maps of strings always marshal
	return string(b)
}

// SamplePayload is a payload such as Claude Code writes for event, for a
// run that must not change anything (doctor): a Stop that a stop hook
// already blocked, so that it never blocks.
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

// ContextWindow is the context window of a model as Claude Code names it,
// in tokens; 0 when the name says nothing. A "[1m]" suffix asks for the
// 1M-token window; the Claude 5 models Claude Code 2.1.330 runs by
// default have it (its auto-compaction starts near 1,000,000 tokens);
// other Claude models have 200,000. With CLAUDE_CODE_DISABLE_1M_CONTEXT set
// (getenv reads it), Claude Code holds every model at 200,000.
func ContextWindow(model string, getenv func(string) string) int {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return 0
	case strings.Contains(m, "[1m]"), strings.HasPrefix(m, "claude-opus-5"), strings.HasPrefix(m, "claude-sonnet-5"):
		if v := getenv(EnvDisable1M); v != "" && v != "0" && !strings.EqualFold(v, "false") {
			return 200_000
		}
		return 1_000_000
	case strings.HasPrefix(m, "claude-"):
		return 200_000
	}
	return 0
}

// execFormSince is the first version known to run a hook's exec form
// ("command" plus "args", no shell): the one the e2e suite drives.
var execFormSince = [3]int{2, 1, 330}

// RunsExecForm says whether `claude --version` output ("2.1.330 (Claude
// Code)") names a version that runs hooks in the exec form.
func RunsExecForm(versionOutput string) bool {
	var v [3]int
	fields := strings.Fields(versionOutput)
	if len(fields) == 0 {
		return false
	}
	if n, _ := fmt.Sscanf(fields[0], "%d.%d.%d", &v[0], &v[1], &v[2]); n != 3 {
		return false
	}
	for i := range v {
		if v[i] != execFormSince[i] {
			return v[i] > execFormSince[i]
		}
	}
	return true
}
