package opencode

import (
	"context"
	"time"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is OpenCode's side of the contract. Its plugin sends the shared
// payload and reads each reply as text: a start's and a recovery's go to
// the system prompt of every request that follows (the latest replaces
// the one before), the snapshot to what the compaction's summary must
// keep.
var Adapter = protocol.Agent{Name: "opencode", Label: "OpenCode",
	Encode: textOnly, StartReplacesStart: true,
	// The plugin sets it to the directory OpenCode runs in.
	ProjectDirEnv: "OPENCODE_PROJECT_DIR",
	// The plugin hands over the session as it stands when the compaction
	// starts, and runs the recovery on session.compacted.
	Versions: "1.18.33",
	Gets: "through a plugin (`.opencode/plugin/session-hooks.js`): the brief in the system prompt; the snapshot in what the " +
		"compaction's summary must keep, and the recovery in the system prompt after it; the handoff when the session goes idle; " +
		"the long-running checks when it goes idle (`--long-running`: a held stop is sent back as a prompt)",
	NotYet: "—",
	// The read tool's result carries a folder's AGENTS.md in it.
	Tags: []string{"system-reminder"},
	Read: func(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
		return Read(ctx, path, opt)
	},
	Injected: func(context.Context, string, transcript.Options) ([]string, error) { return nil, nil },
}

// textOnly is the plugin's reading of a reply: the text as it is, a held
// stop as the shared block (the plugin sends its reason as a prompt).
func textOnly(_ string, r protocol.Reply) string {
	if r.Block {
		return protocol.BlockJSON(r.Text)
	}
	return r.Text
}

func msTime(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339) }
