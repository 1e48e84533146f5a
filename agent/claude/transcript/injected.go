package transcript

import (
	"bytes"
	"context"
	"io"
	"strings"
)

// Injected returns what SessionStart hooks injected into the context the
// transcript ends in, newest first: Claude Code records each hook's output
// as a hook_success attachment, and a forked session's transcript starts
// with its parent's, so this is what the fork's context holds of them. The
// search stops at a compaction boundary (the context before it is gone)
// and reads at most opt.Budget bytes from the end.
func Injected(ctx context.Context, path string, opt Options) ([]string, error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	tr := newTailReader(f, size, opt.Budget, opt.MaxLine)
	for ctx.Err() == nil {
		line, oversized, err := tr.Next()
		if err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, err
		} else if oversized {
			continue
		}
		if bytes.Contains(line, []byte(`"compact_boundary"`)) && entryOf(parse(line)).subtype == "compact_boundary" {
			return out, nil
		}
		if !bytes.Contains(line, []byte(`"hook_success"`)) {
			continue
		}
		a := parse(line).Get("attachment")
		if a.Get("type").Str != "hook_success" || !strings.HasPrefix(a.Get("hookName").Str, "SessionStart") {
			continue
		}
		text := a.Get("stdout").Str
		if text == "" {
			text = a.Get("content").Str
		}
		if text != "" {
			out = append(out, strings.Clone(text))
		}
	}
	return out, ctx.Err()
}
