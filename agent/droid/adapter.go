package droid

import (
	"context"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is Factory Droid's side of the contract: Claude-shaped payloads
// and replies (a hook's context read as JSON, additionalContext). `droid
// exec` compacts inside a turn with no hook (no PreCompact, the same
// session goes on): the snapshot is taken after every tool result, when
// the session changed, and the compaction is the one the session file
// shows; its recovery rides the next tool result or prompt.
var Adapter = protocol.Agent{Name: "droid", Label: "Factory Droid", Encode: protocol.ContextOnly, LateRecovery: true,
	ProjectDirEnv: "FACTORY_PROJECT_DIR",
	Versions:      "0.225.2",
	Gets: "the brief at a start; the snapshot after every tool result, and after a compaction (which `droid exec` makes inside a turn, " +
		"with no hook) the recovery with the next tool result or prompt; the handoff; the long-running checks on Stop (`--long-running`)",
	NotYet: "the interactive `/compact`, which starts a new session (not driven offline)",
	// Droid's own context, and a folder's AGENTS.md, ride in it.
	Tags: []string{"system-reminder"},
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		return Read(ctx, path, opt)
	},
	Injected: func(context.Context, string, transcript.Options) ([]string, error) { return nil, nil },
}
