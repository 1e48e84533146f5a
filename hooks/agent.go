package hooks

import (
	"context"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/agent/codex"
	"github.com/session-hooks/session-hooks/agent/copilot"
	"github.com/session-hooks/session-hooks/agent/gemini"
	"github.com/session-hooks/session-hooks/transcript"
)

// Agent is the protocol of the agent CLI that runs the hooks, where it
// differs from Claude Code's: its payload, its transcript, how its context
// reaches the model, and what it does at a compaction. The wired command
// names it (session-hooks --agent codex init), so a hook never guesses
// from what it is given; package agents holds each with its commands.
type Agent struct {
	Name  string
	Label string // as a person names it
	// Versions are the client's releases the end-to-end suite runs; Gets
	// and NotYet say what its users get and what they do not yet, for the
	// README's table of agents (agents.Markdown).
	Versions, Gets, NotYet string
	// GitContext says that the client itself tells the model the branch,
	// the short status and the recent commits at every start (Claude
	// Code's session_context): the brief then leaves them out.
	GitContext bool
	// Reply, when set, is how the client reads a hook's context: only as
	// JSON, in its shape for the event ("" where the event reads none).
	// Unset, the context is printed as text (Claude Code, Codex CLI).
	Reply func(event, text string) string
	// ParseInput, when set, reads the client's payload (getenv is the
	// run's environment) in place of Claude Code's shape.
	ParseInput func(b []byte, getenv func(string) string) (claude.Input, []string)
	// Events, when set, are the client's events for the table's rows, by
	// their arguments: its payload does not say which event it is (the
	// first is the row's, unless ParseInput tells another).
	Events map[string][]string
	// StartReplacesStart says that a start's context takes the place of
	// the previous start's (Copilot CLI keeps only the latest
	// sessionStart block): what that start gave is no longer held.
	StartReplacesStart bool
	// LateRecovery says that the client has no event after a compaction:
	// the recovery rides the first prompt (or start, or tool result)
	// after it. Unless CompactHookCompacts, its pre-compaction hook runs
	// before every request, compaction or not (Gemini CLI's PreCompress):
	// pre-compact then snapshots only a transcript that changed, keeps the
	// snapshot taken before a compaction until its recovery is given, and
	// the compaction is the one the transcript shows.
	LateRecovery bool
	// CompactHookCompacts says that the client's pre-compaction hook runs
	// only for a compaction (Copilot CLI's preCompact), and that its
	// transcript may not show the compaction until the process exits: the
	// snapshot it takes marks the compaction whose recovery is pending.
	CompactHookCompacts bool
	// Read, ContextUsage and Injected read the agent's transcript: the
	// facts of the work, the context in use, and the texts the hooks put
	// in the context. ContextUsage is nil where there is no reading of
	// the usage cheaper than Read: the run then takes it from Read's
	// facts, read once.
	Read         func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error)
	ContextUsage func(ctx context.Context, path string, opt transcript.Options) (transcript.Usage, error)
	Injected     func(ctx context.Context, path string, opt transcript.Options) ([]string, error)
}

// Claude is Claude Code's, the default.
var Claude = Agent{Name: "claude", Label: "Claude Code", GitContext: true, Read: claude.Read, ContextUsage: claude.ContextUsage, Injected: claude.Injected,
	Versions: "2.1.330–2.1.332",
	Gets:     "the brief at startup, resume, clear and fork; the recovery right after a compaction; the handoff; the long-running checks",
	NotYet:   "—"}

// Codex is Codex CLI's: its transcript is a rollout. Injected serves a
// fork (SessionStart "fork", a new session id): the fork's rollout names
// its parent's, whose hook texts up to the fork the context holds. A
// resume keeps its session id, and the session's ledger says what its
// context holds.
var Codex = Agent{Name: "codex", Label: "Codex CLI",
	Versions: "0.169.0–0.171.0",
	Gets: "the brief (with the branch, commits and status Codex does not give), at a fork only what the parent's context lacks; " +
		"the recovery after a compaction, from Codex's rollout; the handoff; the long-running checks on Stop (`--long-running`)",
	NotYet: "—",
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		r, err := codex.Read(ctx, path, opt)
		if err != nil {
			return nil, err
		}
		return &r.Facts, nil
	},
	Injected: codex.Injected,
}

// Gemini is Gemini CLI's: its transcript is a chat of messages patched in
// place, and it reads a hook's context only as JSON.
var Gemini = Agent{Name: "gemini", Label: "Gemini CLI", Reply: claude.AdditionalContext, LateRecovery: true,
	Versions: "0.61.0",
	Gets: "the brief; the handoff; after a compression, the recovery with the next prompt (Gemini has no event right after one); " +
		"the long-running checks on AfterAgent (`--long-running`)",
	NotYet: "—",
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		c, err := gemini.Read(ctx, path, opt)
		if err != nil {
			return nil, err
		}
		return &c.Facts, nil
	},
	Injected: noneInjected,
}

// noneInjected is Injected for a client with no fork, whose context holds
// nothing of ours the session's ledger does not know.
func noneInjected(context.Context, string, transcript.Options) ([]string, error) { return nil, nil }

// Copilot is GitHub Copilot CLI's: its transcript is the session's
// events, written when the process exits; its payloads are camelCase and
// do not name their event; it reads a hook's context only as JSON; it has
// no event after a compaction, and keeps only the latest start's context.
var Copilot = Agent{Name: "copilot", Label: "GitHub Copilot CLI", Reply: copilot.Reply, LateRecovery: true,
	CompactHookCompacts: true, StartReplacesStart: true, Events: copilot.Events,
	Versions: "1.0.102",
	Gets: "the brief at a new or resumed session; after a compaction, the recovery with the next tool result or prompt (Copilot has no event right after one); " +
		"the handoff; the long-running checks on agentStop (`--long-running`)",
	NotYet: "—",
	ParseInput: func(b []byte, getenv func(string) string) (claude.Input, []string) {
		p, notes := copilot.ParsePayload(b, copilot.Home(getenv))
		source := p.Source
		if source == "new" {
			source = claude.SourceStartup
		}
		in := claude.Input{SessionID: p.SessionID, Cwd: p.Cwd, TranscriptPath: p.TranscriptPath, Source: source,
			Trigger: p.Trigger, Reason: p.Reason, Prompt: p.Prompt, ToolName: p.ToolName, StopHookActive: p.StopHookActive}
		if p.ToolName != "" {
			in.Event = "postToolUse" // the recovery's second event: a tool's result
		}
		return in, notes
	},
	Read:     copilot.Read,
	Injected: noneInjected,
}

// agent is the run's agent; Claude Code's for a Run a test built.
func (r *Run) agent() Agent {
	if r.Agent.Read == nil {
		return Claude
	}
	return r.Agent
}
