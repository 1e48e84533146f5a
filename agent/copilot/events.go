// Package copilot holds what session-hooks knows of GitHub Copilot CLI
// 1.0.102's protocol (docs/agents.md): its session's events.jsonl under
// ~/.copilot/session-state/<session>/, read into the facts the hooks
// render, and its hook payloads, camelCase and without the event's name.
package copilot

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	r := &reader{seen: map[string]bool{}, calls: map[string]call{}}
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
	requests  transcript.Requests
	seen      map[string]bool
	calls     map[string]call       // by toolCallId, for their results
	lastError *transcript.ToolError // the newest tool result, when it failed
	todos     todoTable
}

// call is a tool call as it started: what it was, its arguments, and the
// call of a subagent it ran for ("" for the main agent's).
type call struct {
	transcript.ToolCall
	name, parent string
	args         gjson.Result
}

func (r *reader) line(b []byte) {
	if !gjson.ValidBytes(b) {
		return // torn (being written) or foreign
	}
	line := gjson.ParseBytes(b)
	d := line.Get("data")
	switch line.Get("type").Str {
	case "user.message":
		// A message with a source is Copilot CLI's own: a skill's
		// context, a system reminder, the main agent's prompt to a
		// subagent.
		if d.Get("source").Str == "" {
			r.request(d.Get("content").Str, line.Get("timestamp").Str)
		}
	case "assistant.message":
		if text := strings.TrimSpace(d.Get("content").Str); text != "" {
			r.texts = append(r.texts, text)
			r.texts = r.texts[max(0, len(r.texts)-3):]
		}
	case "tool.execution_start":
		if len(r.calls) < maxCalls {
			name := d.Get("toolName").Str
			r.calls[d.Get("toolCallId").Str] = call{ToolCall: transcript.ToolCall{Tool: sanitize.Excerpt(name, 80), Input: callInput(d.Get("arguments"))},
				name: name, parent: d.Get("parentToolCallId").Str, args: d.Get("arguments")}
		}
	case "tool.execution_complete":
		r.result(d, line.Get("timestamp").Str)
	case "session.usage_record":
		r.usage(d.Get("usage"))
	case "session.compaction_complete":
		if d.Get("success").Bool() && d.Get("outcome").Str == "applied" {
			r.compacted(d.Get("compactionAttemptId").Str)
		}
	}
}

// request is a prompt the user typed; a terse one ("go on") keeps the one
// that set the work beside it.
func (r *reader) request(text, at string) {
	text = strings.TrimSpace(text)
	if text == "" || transcript.IsHoldReason(text) {
		return
	}
	r.requests.Add(text)
	r.out.LastPrompt, r.out.LastPromptAt = transcript.Request(text), sanitize.Excerpt(at, 40)
	r.out.PreviousPrompt = r.requests.Previous()
	// A request does not close an error: only a success does.
	r.out.ErrorBeforeRequest = r.lastError != nil
}

// writeTools are Copilot CLI's tools that write a file.
var writeTools = []string{"edit", "create", "apply_patch", "write", "str_replace_editor"}

// shellTools are its tools whose result says a command's exit code.
var shellTools = []string{"bash", "powershell", "shell", "read_bash", "read_powershell"}

// result reads a finished tool call: the files it wrote, the task list
// its sql statements build, and whether it failed (a call Copilot CLI
// counts as a success may be a command that exited non-zero). The
// newest result of the main agent decides whether an error is open.
func (r *reader) result(d gjson.Result, at string) {
	c := r.calls[d.Get("toolCallId").Str]
	ok := d.Get("success").Bool()
	if ok {
		r.wrote(d, c)
		if q := c.args.Get("query").Str; c.name == "sql" && c.parent == "" && todoQuery(q) {
			r.todos.exec(q)
			r.out.Todos, r.out.TasksChangedAt = r.todos.todos(), sanitize.Excerpt(at, 40)
		}
	}
	if c.parent != "" || d.Get("parentToolCallId").Str != "" {
		return // a subagent's call: not what the main agent left open
	}
	msg := ""
	switch code := exitCode(d, c.name); {
	case !ok:
		msg = cmp.Or(d.Get("error.message").Str, d.Get("result.content").Str, "failed")
	case code != "" && code != "0":
		msg = "Exit code " + code + "\n" + exitMarker().ReplaceAllString(d.Get("result.content").Str, "")
	default:
		r.lastError = nil
		return
	}
	if c.Tool == "" {
		c.Tool = "tool"
	}
	r.lastError = &transcript.ToolError{ToolCall: c.ToolCall, Error: sanitize.Excerpt(strings.TrimSpace(msg), transcript.ErrorRunes)}
	r.out.ErrorBeforeRequest = false
}

// wrote records the files a successful call wrote: fileEdits where the
// version records them, else the path (or the patch) it was given.
func (r *reader) wrote(d gjson.Result, c call) {
	if edits := d.Get("fileEdits"); edits.IsArray() {
		for _, e := range edits.Array() {
			r.touched(e.Get("path").Str)
		}
		return
	}
	if !slices.Contains(writeTools, c.name) {
		return
	}
	if c.name == "apply_patch" {
		patch := c.args.Str
		if !c.args.IsObject() && patch == "" {
			patch = c.args.Raw
		} else if c.args.IsObject() {
			patch = cmp.Or(c.args.Get("input").Str, c.args.Get("patch").Str)
		}
		for _, p := range transcript.PatchPaths(patch) {
			r.touched(p)
		}
		return
	}
	r.touched(c.args.Get("path").Str)
}

// todoQuery says whether a sql call's statements are about the task list.
func todoQuery(q string) bool {
	return todoWords().MatchString(q)
}

var todoWords = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\btodos?\b|todo_deps`) })

// exitMarker is the line a shell tool's result ends with in older
// versions: "<exited with exit code N>", "<shellId: … completed with exit
// code N>".
var exitMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<(?:shellId: \S+ completed|exited) with exit code (\d+)>\s*$`)
})

// exitCode is a shell tool's exit code, as the version records it
// ("" where it does not, or the tool is no shell).
func exitCode(d gjson.Result, name string) string {
	if c := d.Get("shellExecution.exitCode"); c.Exists() {
		return strconv.FormatInt(c.Int(), 10)
	}
	if !slices.Contains(shellTools, name) {
		return ""
	}
	if m := exitMarker().FindStringSubmatch(d.Get("result.content").Str); m != nil {
		return m[1]
	}
	if c := d.Get("toolTelemetry.metrics.exit_code"); c.Exists() {
		return strconv.FormatInt(c.Int(), 10)
	}
	return ""
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
	if out.OpenError == nil {
		out.ErrorBeforeRequest = false
	}
	out.Texts = append(out.Texts, transcript.Excerpts(r.texts)...)
	return &out
}
