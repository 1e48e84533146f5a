package protocol

import (
	"context"

	"github.com/session-hooks/session-hooks/transcript"
)

// Agent is one client's adapter: how its hooks map onto the contract. The
// wired command names it (session-hooks --agent codex init), so a hook
// never guesses from what it is given. Each client's folder under agent/
// defines its own; the registry (package agent) lists them.
type Agent struct {
	Name  string // as --agent names it
	Label string // as a person names it
	// Versions are the client's releases the end-to-end suite runs; Gets
	// and NotYet say what its users get and what they do not yet, for the
	// README's table of agents.
	Versions, Gets, NotYet string
	// Tags are the tags the client wraps its own words in (a reminder, a
	// notice, a context block), as its recorded session files show them:
	// text from outside holding one could pass for the client speaking,
	// and the one output policy (internal/sanitize) neutralises each.
	Tags []string
	// GitContext says that the client itself tells the model the branch,
	// the short status and the recent commits at every start: the brief
	// then leaves them out.
	GitContext bool
	// Budget is the most a run prints for this client (DefaultBudget when
	// 0): its limit on what it injects whole, with a margin.
	Budget int
	// ProjectDirEnv is the variable the client sets to the directory it
	// was started in ("" when it sets none).
	ProjectDirEnv string
	// Encode is how the client reads a reply of event (a context, a held
	// stop, a start's text): "" where the event reads none. Nil prints
	// text as text, and context and held stops in the shared JSON shapes.
	Encode func(event string, r Reply) string
	// ParseInput reads the client's payload (getenv is the run's
	// environment); nil reads the shared shape (ParseInput).
	ParseInput func(b []byte, getenv func(string) string) (Input, []string)
	// Events, when set, are the client's events for the table's rows, by
	// their arguments: its payload does not say which event it is (the
	// first is the row's, unless ParseInput tells another).
	Events map[string][]string
	// StartReplacesStart says that a start's context takes the place of
	// the previous start's (the client keeps only the latest start's
	// block): what that start gave is no longer held.
	StartReplacesStart bool
	// LateRecovery says that the client has no event after a compaction:
	// the recovery rides the first prompt (or start, or tool result)
	// after it. Unless CompactHookCompacts, its pre-compaction hook runs
	// before every request, compaction or not: pre-compact then snapshots
	// only a session that changed, keeps the snapshot taken before a
	// compaction until its recovery is given, and the compaction is the
	// one the session file shows.
	LateRecovery bool
	// CompactHookCompacts says that the client's pre-compaction hook runs
	// only for a compaction, and that its session file may not show the
	// compaction until the process exits: the snapshot it takes marks the
	// compaction whose recovery is pending.
	CompactHookCompacts bool
	// EchoesManualCompact says that the client records a manual
	// compaction's pre-compaction hook output in the session, where the
	// model reads it after the compaction beside the recovery (Claude
	// Code's "/compact"): that hook then prints nothing.
	EchoesManualCompact bool
	// Read, ContextUsage and Injected read the client's session file: the
	// facts of the work, the context in use, and the texts the hooks put
	// in the context. ContextUsage is nil where there is no reading of
	// the usage cheaper than Read: the run then takes it from Read's
	// facts, read once.
	Read         func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error)
	ContextUsage func(ctx context.Context, path string, opt transcript.Options) (transcript.Usage, error)
	Injected     func(ctx context.Context, path string, opt transcript.Options) ([]string, error)
	// Tasks, when set, is the task list the client keeps beside the
	// session file (it wins over the calls the session file records).
	Tasks func(transcriptPath, sessionID string, getenv func(string) string) []transcript.Todo
	// ContextWindow, when set, is the window of a model as the client
	// names it (0 when unknown); the session file may say it instead.
	ContextWindow func(model string, getenv func(string) string) int
	// Remote says whether the client runs in the cloud, not on this
	// machine (the logs' metadata); nil: never.
	Remote func(getenv func(string) string) bool
	// ForkParent, when set, finds the session file a fork was made from,
	// whose context the fork holds: among the files beside own and in the
	// session directories of the repository's worktrees, the one whose
	// last reply reported tokens. "" when none does.
	ForkParent func(ctx context.Context, own string, worktrees []string, tokens int) string
	// KeepsRunsStarts says that a compaction keeps, in the new context,
	// the start outputs of the run that asked for it (a `claude -p
	// /compact --resume` run's resume), written after the last request.
	KeepsRunsStarts bool
	// WritesLate says that the client may start a hook before the last
	// batch of its session file is on disk: a snapshot waits for it to
	// settle (never where the pre-compaction hook runs before every
	// request: LateRecovery without CompactHookCompacts).
	WritesLate bool
	// StartOnPrompt says that the client puts a start's context before
	// the run's first prompt, in one message, and that its resume rebuilds
	// the conversation without any message that begins with a hook's
	// context (Gemini CLI 0.61.0): the user's request would go with ours.
	// The start's context waits for the first prompt's hook instead, whose
	// context the client puts after the prompt.
	StartOnPrompt bool
}

// Limit is the most a run prints for the agent.
func (a Agent) Limit() int {
	if a.Budget > 0 {
		return a.Budget
	}
	return DefaultBudget
}

// EncodeReply is the reply as the agent's stdout carries it.
func (a Agent) EncodeReply(event string, r Reply) string {
	if r.Data {
		return r.Text
	}
	if a.Encode != nil {
		return a.Encode(event, r)
	}
	return SharedEncode(event, r)
}

// SharedEncode is the encoding most clients read: text as text, context
// and held stops in the shared JSON shapes.
func SharedEncode(event string, r Reply) string {
	switch {
	case r.Block:
		return BlockJSON(r.Text)
	case r.Empty():
		return ""
	case r.Context:
		return ContextJSON(event, r.Text)
	}
	return r.Text
}

// ContextOnly is the encoding of a client that reads a hook's context only
// as JSON: every text becomes the shared context shape, a held stop the
// shared block.
func ContextOnly(event string, r Reply) string {
	switch {
	case r.Block:
		return BlockJSON(r.Text)
	case r.Empty():
		return ""
	}
	return ContextJSON(event, r.Text)
}

// Parse reads a payload as the agent does.
func (a Agent) Parse(b []byte, getenv func(string) string) (Input, []string) {
	if a.ParseInput != nil {
		return a.ParseInput(b, getenv)
	}
	return ParseInput(b)
}
