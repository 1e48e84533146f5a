package gemini

import (
	"context"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is Gemini CLI's side of the contract: the shared payload; its
// session file a chat of messages patched in place; it reads a hook's
// context only as JSON, and has no event right after a compression.
var Adapter = protocol.Agent{Name: "gemini", Label: "Gemini CLI", Encode: protocol.ContextOnly, LateRecovery: true,
	// A start's context put before `gemini -p`'s prompt would take the
	// prompt with it out of a resumed conversation.
	StartOnPrompt: true,
	// Gemini CLI sets $CLAUDE_PROJECT_DIR too, for hooks written for
	// Claude Code.
	ProjectDirEnv: "CLAUDE_PROJECT_DIR",
	Versions:      "0.61.0",
	Gets: "the brief with a run's first prompt (kept by `--resume`, which drops a start's context and the prompt it rides); the handoff; after a compression, the recovery with the next prompt (Gemini has no event right after one); " +
		"the long-running checks on AfterAgent (`--long-running`)",
	NotYet: "—",
	Tags:   []string{"state_snapshot", "hook_context"},
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		c, err := Read(ctx, path, opt)
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
