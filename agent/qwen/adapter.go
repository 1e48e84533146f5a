package qwen

import (
	"context"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is Qwen Code's side of the contract: Claude-shaped payloads and
// replies (it reads a hook's context as JSON, additionalContext), its
// session file a chat record.
var Adapter = protocol.Agent{Name: "qwen", Label: "Qwen Code", Encode: protocol.ContextOnly,
	// PreCompact runs for a compaction only; the recovery rides the next
	// prompt or tool result (Events); a start's context replaces the
	// previous start's (it is the system prompt's, not the history's).
	LateRecovery: true, CompactHookCompacts: true, StartReplacesStart: true,
	// Its chat recorder queues each line and writes it later (a promise
	// chain): PreCompact can start before the last tool result is written.
	WritesLate: true,
	Versions:   "0.24.4",
	Gets: "the brief at startup and resume; the snapshot before a compaction, and the recovery with the next prompt or tool result " +
		"(Qwen Code applies SessionStart `compact` without waiting for it); the handoff; the long-running checks on Stop (`--long-running`)",
	NotYet: "the handoff of a one-shot run (`qwen \"…\"`): Qwen Code fires no SessionEnd there",
	Tags:   []string{"system-reminder"},
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		return Read(ctx, path, opt)
	},
	Injected: func(context.Context, string, transcript.Options) ([]string, error) { return nil, nil },
}
