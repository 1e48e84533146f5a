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
	r.out.Notes = append(r.out.Notes, notes...)
	return r.finish(), nil
}

type reader struct {
	out       transcript.Facts
	requests  transcript.Requests
	texts     []string // the agent's texts, oldest first
	files     transcript.Files
	lastError *transcript.ToolError // the newest tool result, when it failed
	calls     map[string]call       // by call id, for their results
	model     string
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
		r.files.Reset()
		r.out.Compaction = sanitize.Excerpt(line.Get("id").Str, 80)
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
	text := strings.TrimSpace(strings.Join(texts, "\n"))
	if text == "" || transcript.IsHoldReason(text) || strings.HasPrefix(text, "<system-reminder>") {
		return
	}
	r.requests.Add(text)
	r.out.LastPrompt, r.out.LastPromptAt = transcript.Request(text), sanitize.Excerpt(at, 40)
	r.out.PreviousPrompt = r.requests.Previous()
	r.out.ErrorBeforeRequest = r.lastError != nil
}

func (r *reader) assistant(m gjson.Result, at string) {
	if id := m.Get("modelId").Str; id != "" {
		r.model = sanitize.Excerpt(id, 80)
	}
	for _, c := range m.Get("content").Array() {
		switch c.Get("type").Str {
		case "text":
			if t := strings.TrimSpace(c.Get("text").Str); t != "" {
				r.texts = append(r.texts, t)
				if len(r.texts) > 3 {
					r.texts = r.texts[1:]
				}
			}
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
		r.lastError = &transcript.ToolError{ToolCall: transcript.ToolCall{Tool: k.name, Input: k.input},
			Error: sanitize.Excerpt(contentText(c.Get("content")), transcript.ErrorRunes)}
		r.out.ErrorBeforeRequest = false
		return
	}
	r.lastError = nil
	for _, p := range k.touches {
		r.files.Touch(p)
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
	r.out.Todos = []transcript.Todo{}
	for _, t := range list.Array() {
		r.out.Todos = append(r.out.Todos, transcript.Todo{Content: sanitize.Excerpt(t.Get("content").Str, transcript.TaskRunes),
			Status: sanitize.Excerpt(t.Get("status").Str, 20)})
	}
	r.out.TasksChangedAt = sanitize.Excerpt(at, 40)
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

func (r *reader) finish() *transcript.Facts {
	out := r.out
	out.FilesTouched = r.files.List()
	out.OpenError = r.lastError
	if out.OpenError == nil {
		out.ErrorBeforeRequest = false
	}
	out.Usage.Model = r.model
	out.Texts = append(out.Texts, transcript.Excerpts(r.texts)...)
	return &out
}
