// Package droid is Factory Droid's side of the hook contract: its adapter
// (Claude-shaped payloads and replies; a compaction inside a turn that no
// hook sees, so the snapshot is taken after every tool result and the
// recovery rides the next one) and its session file read into the
// transcript facts. What is written here was observed with the real
// droid 0.225.2 (testdata/droid-0.225.2, recorded by e2e/recorddroid).
package droid

import (
	"bytes"
	"context"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// Read reads the session file at path (~/.factory/sessions/<cwd>/<id>.jsonl)
// from at most opt.Budget bytes before its end, forward, line by line:
// Droid appends, so the newest of each fact wins. Memory is bounded by
// opt.MaxLine, time by opt.Budget.
func Read(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
	r := &reader{calls: map[string]call{}}
	notes, err := transcript.ReadForward(ctx, path, opt, "session file", r.line)
	if err != nil {
		return nil, err
	}
	r.Out.Notes = append(r.Out.Notes, notes...)
	return r.Finish(), nil
}

type reader struct {
	transcript.Tally
	calls map[string]call // by call id, for their results
}

type call struct {
	name, input string
	touches     []string // the files it writes when it succeeds
}

// maxCalls bounds the calls remembered for their results.
const maxCalls = 10000

func (r *reader) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || !gjson.ValidBytes(b) {
		return // torn (being written) or foreign
	}
	line := gjson.ParseBytes(b)
	switch line.Get("type").Str {
	case "message":
		m := line.Get("message")
		switch m.Get("role").Str {
		case "user":
			r.user(m, line.Get("timestamp").Str)
		case "assistant":
			r.assistant(m, line.Get("timestamp").Str)
		}
	case "compaction_state":
		// What was written before is in the summary now.
		r.Files.Reset()
		r.Out.Compaction = sanitize.Excerpt(line.Get("id").Str, 80)
	}
}

// user reads a user-role message: what a person typed is its text, unless
// Droid made it (a hook's run, visibility user_only; its own context,
// llm_only); a tool's result says whether an error is open.
func (r *reader) user(m gjson.Result, at string) {
	if m.Get("visibility").Exists() || m.Get("hookEventName").Exists() {
		return
	}
	var texts []string
	for _, c := range m.Get("content").Array() {
		switch c.Get("type").Str {
		case "text":
			texts = append(texts, c.Get("text").Str)
		case "tool_result":
			r.result(c)
		}
	}
	if m.Get("content").Type == gjson.String {
		texts = append(texts, m.Get("content").Str)
	}
	// Droid's own context, in a message without its marks.
	if text := strings.TrimSpace(strings.Join(texts, "\n")); !strings.HasPrefix(text, "<system-reminder>") {
		r.Request(text, at)
	}
}

func (r *reader) assistant(m gjson.Result, at string) {
	r.Model(m.Get("modelId").Str)
	for _, c := range m.Get("content").Array() {
		switch c.Get("type").Str {
		case "text":
			r.Text(strings.TrimSpace(c.Get("text").Str))
		case "tool_use":
			r.toolUse(c, at)
		}
	}
}

func (r *reader) toolUse(c gjson.Result, at string) {
	name := sanitize.Excerpt(c.Get("name").Str, 80)
	in := c.Get("input")
	k := call{name: name, input: callInput(in)}
	switch name {
	case "Create", "Edit", "MultiEdit", "Write":
		k.touches = []string{in.Get("file_path").Str}
	case "ApplyPatch":
		k.touches = transcript.PatchPaths(in.Get("input").Str + "\n" + in.Get("patch").Str)
	case "TodoWrite":
		r.todos(in.Get("todos"), at)
	}
	if len(r.calls) < maxCalls {
		r.calls[c.Get("id").Str] = k
	}
}

// result reads a tool's result: the newest says whether an error is open
// (Droid marks a failure is_error), and a write that succeeded touches
// its files.
func (r *reader) result(c gjson.Result) {
	k := r.calls[c.Get("tool_use_id").Str]
	if c.Get("is_error").Bool() {
		r.Failed(transcript.ToolCall{Tool: k.name, Input: k.input}, contentText(c.Get("content")))
		return
	}
	r.Succeeded()
	for _, p := range k.touches {
		r.Files.Touch(p)
	}
}

// contentText is a tool result's content as text: a string, or its text
// parts.
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	for _, p := range c.Array() {
		parts = append(parts, p.Get("text").Str)
	}
	return strings.Join(parts, "\n")
}

// todos is the list a TodoWrite call sets, whole: the newest stands.
func (r *reader) todos(list gjson.Result, at string) {
	if !list.IsArray() {
		return
	}
	r.Out.Todos = []transcript.Todo{}
	for _, t := range list.Array() {
		r.Out.Todos = append(r.Out.Todos, transcript.Todo{Content: sanitize.Excerpt(t.Get("content").Str, transcript.TaskRunes),
			Status: sanitize.Excerpt(t.Get("status").Str, 20)})
	}
	r.Out.TasksChangedAt = sanitize.Excerpt(at, 40)
}

// callInput says in one line what a call was made with: its command or
// file, else its arguments.
func callInput(args gjson.Result) string {
	for _, k := range []string{"command", "file_path", "directory_path", "pattern"} {
		if v := args.Get(k); v.Type == gjson.String {
			return sanitize.Excerpt(v.Str, transcript.InputRunes)
		}
	}
	return sanitize.Excerpt(args.Raw, transcript.InputRunes)
}
