package codex

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/transcript"
)

// Injected are the texts hooks put in the context a rollout's session
// holds: its own, and for a fork (its session_meta names forked_from_id),
// those its parent's rollout held before the fork. Codex does not copy
// the parent's history into a fork's rollout; it reads it from the
// parent's, up to forked_from_ordinal_exclusive.
func Injected(ctx context.Context, path string, opt transcript.Options) ([]string, error) {
	own, parent, bound, err := hookTexts(ctx, path, opt, -1)
	if err != nil || parent == "" {
		return own, err
	}
	if p := parentRollout(path, parent); p != "" {
		if held, _, _, err := hookTexts(ctx, p, opt, bound); err == nil {
			return append(held, own...), nil
		}
	}
	return own, nil
}

// hookTexts reads a rollout's hook texts (developer messages Codex marks
// hooks.additional_context) within opt's budget, those of ordinal below
// bound when bound is not -1, and the fork it came from, when it is one.
func hookTexts(ctx context.Context, path string, opt transcript.Options, bound int64) (texts []string, parent string, parentBound int64, err error) {
	_, err = transcript.ReadForward(ctx, path, opt, "rollout", func(line []byte) {
		v := gjson.ParseBytes(line)
		p := v.Get("payload")
		switch v.Get("type").Str {
		case "session_meta":
			if id := p.Get("forked_from_id").Str; id != "" {
				parent, parentBound = id, p.Get("forked_from_ordinal_exclusive").Int()
			}
		case "response_item":
			if bound >= 0 && v.Get("ordinal").Int() >= bound {
				return
			}
			if p.Get("role").Str != "developer" || !strings.Contains(p.Get("internal_chat_message_metadata_passthrough.content_item_kinds").Raw, `"hooks.additional_context"`) {
				return
			}
			for _, c := range p.Get("content").Array() {
				if t := c.Get("text"); t.Type == gjson.String {
					texts = append(texts, t.Str)
				}
			}
		}
	})
	return texts, parent, parentBound, err
}

// threadID is what Codex names a thread (a UUID): anything else names no
// rollout to look for.
var threadID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F-]{8,64}$`) })

// parentRollout is the rollout of thread id, looked for beside the fork's
// (the same day) and then in every day of the sessions folder the fork's
// lies in (sessions/YYYY/MM/DD); "" when there is none.
func parentRollout(fork, id string) string {
	if !threadID().MatchString(id) {
		return ""
	}
	day := filepath.Dir(fork)
	name := "rollout-*-" + id + ".jsonl"
	if m, _ := filepath.Glob(filepath.Join(day, name)); len(m) > 0 {
		return m[0]
	}
	sessions := filepath.Dir(filepath.Dir(filepath.Dir(day)))
	if m, _ := filepath.Glob(filepath.Join(sessions, "*", "*", "*", name)); len(m) > 0 {
		return m[0]
	}
	return ""
}
