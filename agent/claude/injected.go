package claude

import (
	"bytes"
	"context"
	"strings"

	"github.com/session-hooks/session-hooks/transcript"
)

// Injected returns what SessionStart hooks injected into the context the
// transcript ends in, newest first: Claude Code records each hook's output
// as a hook_success attachment, and a forked session's transcript starts
// with its parent's, so this is what the fork's context holds of them. The
// search stops at a compaction boundary (the context before it is gone)
// and reads at most opt.Budget bytes from the end.
func Injected(ctx context.Context, path string, opt transcript.Options) ([]string, error) {
	var out []string
	err := linesFromEnd(ctx, path, opt, func(line []byte) bool {
		if bytes.Contains(line, []byte(`"compact_boundary"`)) && entryOf(parse(line)).subtype == "compact_boundary" {
			return false
		}
		if !bytes.Contains(line, []byte(`"hook_success"`)) {
			return true
		}
		a := parse(line).Get("attachment")
		if a.Get("type").Str != "hook_success" || !strings.HasPrefix(a.Get("hookName").Str, "SessionStart") {
			return true
		}
		text := a.Get("stdout").Str
		if text == "" {
			text = a.Get("content").Str
		}
		if text != "" {
			out = append(out, strings.Clone(text))
		}
		return true
	})
	return out, err
}
