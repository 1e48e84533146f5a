package codex

import (
	"context"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is Codex CLI's side of the contract: the shared payload and
// replies, its session file a rollout. Injected serves a fork
// (SessionStart "fork", a new session id): the fork's rollout names its
// parent's, whose hook texts up to the fork the context holds. A resume
// keeps its session id, and the session's ledger says what its context
// holds.
var Adapter = protocol.Agent{Name: "codex", Label: "Codex CLI",
	Versions: "0.169.0–0.171.0",
	Gets: "the brief (with the branch, commits and status Codex does not give), at a fork only what the parent's context lacks; " +
		"the recovery after a compaction, from Codex's rollout; the handoff; the long-running checks on Stop (`--long-running`)",
	NotYet:     "—",
	WritesLate: true,
	Tags:       []string{"environment_context"},
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		r, err := Read(ctx, path, opt)
		if err != nil {
			return nil, err
		}
		return &r.Facts, nil
	},
	Injected: Injected,
}
