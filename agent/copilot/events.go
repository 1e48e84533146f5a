// Package copilot holds what session-hooks knows of GitHub Copilot CLI
// 1.0.102's protocol (docs/agents.md): its session's events.jsonl under
// ~/.copilot/session-state/<session>/, read into the facts the hooks
// render, and its hook payloads, camelCase and without the event's name.
package copilot

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// Read reads the events at path from at most opt.Budget bytes before its
// end, forward, line by line: Copilot CLI appends, so the newest of each
// fact wins. Facts.Compaction names the last compaction applied (its
// attempt id): Copilot CLI has no event after one, and the hooks deliver
// its recovery once per name.
func Read(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
	r := &reader{seen: map[string]bool{}, calls: map[string]transcript.ToolCall{}}
	notes, err := transcript.ReadForward(ctx, path, opt, "event log", r.line)
	if err != nil {
		return nil, err
	}
	r.out.Notes = append(r.out.Notes, notes...)
	return r.finish(), nil
}

// maxTokens bounds a token count taken as true: no model's window is near.
const maxTokens = 1_000_000_000

// maxCalls bounds the tool calls remembered for their results.
const maxCalls = 10000

type reader struct {
	out       transcript.Facts
	texts     []string // the agent's messages, oldest first
	prompts   []string // the last two requests, oldest first
	seen      map[string]bool
	calls     map[string]transcript.ToolCall // by toolCallId, for their results
	lastError *transcript.ToolError          // the newest tool result, when it failed
}

func (r *reader) line(b []byte) {
	if !gjson.ValidBytes(b) {
		return // torn (being written) or foreign
	}
	line := gjson.ParseBytes(b)
	d := line.Get("data")
	switch line.Get("type").Str {
	case "user.message":
		r.request(d.Get("content").Str, line.Get("timestamp").Str)
	case "assistant.message":
		if text := strings.TrimSpace(d.Get("content").Str); text != "" {
			r.texts = append(r.texts, text)
			r.texts = r.texts[max(0, len(r.texts)-3):]
		}
	case "tool.execution_start":
		if len(r.calls) < maxCalls {
			r.calls[d.Get("toolCallId").Str] = transcript.ToolCall{Tool: sanitize.Excerpt(d.Get("toolName").Str, 80), Input: callInput(d.Get("arguments"))}
		}
	case "tool.execution_complete":
		r.result(d)
	case "session.usage_record":
		r.usage(d.Get("usage"))
	case "session.compaction_complete":
		if d.Get("success").Bool() && d.Get("outcome").Str == "applied" {
			r.compacted(d.Get("compactionAttemptId").Str)
		}
	}
}

// request is a prompt the user typed; a terse one ("go on") keeps the one
// before it beside it.
func (r *reader) request(text, at string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	r.prompts = append(r.prompts, text)
	r.prompts = r.prompts[max(0, len(r.prompts)-2):]
	r.out.LastPrompt, r.out.LastPromptAt = transcript.Request(text), sanitize.Excerpt(at, 40)
	r.out.PreviousPrompt = ""
	if len(r.prompts) == 2 && transcript.Terse(text) {
		r.out.PreviousPrompt = transcript.Request(r.prompts[0])
	}
	r.lastError = nil // a request after an error moves on from it
}

// result reads a finished tool call: the files it wrote, and whether it
// failed (a call Copilot CLI counts as a success may be a command that
// exited non-zero). The newest result decides whether an error is open.
func (r *reader) result(d gjson.Result) {
	r.lastError = nil
	ok := d.Get("success").Bool()
	if ok {
		for _, e := range d.Get("fileEdits").Array() {
			r.touched(e.Get("path").Str)
		}
	}
	msg := ""
	switch code := d.Get("shellExecution.exitCode"); {
	case !ok:
		msg = cmp.Or(d.Get("error.message").Str, d.Get("result.content").Str, "failed")
	case code.Exists() && code.Int() != 0:
		msg = "Exit code " + strconv.FormatInt(code.Int(), 10) + "\n" + d.Get("result.content").Str
	default:
		return
	}
	c := r.calls[d.Get("toolCallId").Str]
	if c.Tool == "" {
		c.Tool = "tool"
	}
	r.lastError = &transcript.ToolError{ToolCall: c, Error: sanitize.Excerpt(strings.TrimSpace(msg), transcript.ErrorRunes)}
}

// touched records a file written, newest last, each once.
func (r *reader) touched(path string) {
	p := sanitize.Path(path, 500)
	if p == "" {
		return
	}
	if r.seen[p] {
		r.out.FilesTouched = slices.DeleteFunc(r.out.FilesTouched, func(x string) bool { return x == p })
	}
	r.seen[p] = true
	r.out.FilesTouched = append(r.out.FilesTouched, p)
	if len(r.out.FilesTouched) > transcript.MaxFiles {
		delete(r.seen, r.out.FilesTouched[0])
		r.out.FilesTouched = r.out.FilesTouched[1:]
	}
}

// usage is a model call's: the context it was given is its input,
// cached or not.
func (r *reader) usage(u gjson.Result) {
	in, out := u.Get("inputTokens").Int(), u.Get("outputTokens").Int()
	cached := u.Get("cacheReadTokens").Int() + u.Get("cacheWriteTokens").Int()
	if in < 0 || cached < 0 || in+cached <= 0 || in+cached > maxTokens || out < 0 || out > maxTokens {
		return
	}
	r.out.Usage = transcript.Usage{Tokens: int(in + cached), Output: int(out), Model: sanitize.Excerpt(u.Get("model").Str, 80), Known: true}
}

// compacted starts the facts of the context over: what the summary
// stands for is no longer the agent's own.
func (r *reader) compacted(id string) {
	r.out.Compaction = sanitize.Excerpt(id, 80)
	r.out.FilesTouched, r.seen = nil, map[string]bool{}
	r.out.Usage = transcript.Usage{}
	r.texts = nil
}

// callInput says in one line what a call was made with: a command, a
// path, else its arguments.
func callInput(args gjson.Result) string {
	for _, k := range []string{"command", "path"} {
		if v := args.Get(k); v.Type == gjson.String {
			return sanitize.Excerpt(v.Str, transcript.InputRunes)
		}
	}
	return sanitize.Excerpt(args.Raw, transcript.InputRunes)
}

func (r *reader) finish() *transcript.Facts {
	out := r.out
	out.OpenError = r.lastError
	for i, t := range r.texts {
		n := transcript.ExcerptRunes
		if i == len(r.texts)-1 {
			n = transcript.LatestRunes
		}
		out.Texts = append(out.Texts, sanitize.Excerpt(t, n))
	}
	return &out
}
