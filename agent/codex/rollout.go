package codex

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// Rollout is what a rollout says about the work in progress, in the
// shape the hooks render; Usage.Window is the model's context window Codex
// reported (0 when none).
type Rollout struct {
	transcript.Facts
}

// Read reads the rollout at path from at most opt.Budget bytes before its
// end, forward, line by line: Codex appends, so the newest of each fact
// wins. Memory is bounded by opt.MaxLine, time by opt.Budget.
func Read(ctx context.Context, path string, opt transcript.Options) (*Rollout, error) {
	r := &reader{seen: map[string]bool{}, calls: map[string]call{}}
	notes, err := transcript.ReadForward(ctx, path, opt, "rollout", r.line)
	if err != nil {
		return nil, err
	}
	r.out.Notes = append(r.out.Notes, notes...)
	return r.finish(), nil
}

type reader struct {
	out       Rollout
	texts     []string // assistant messages, oldest first
	seen      map[string]bool
	lastError *transcript.ToolError // the newest tool result, when it failed
	calls     map[string]call       // by call_id, for their results
	model     string
	window    int // the latest model_context_window, kept across usage lines
	requests  transcript.Requests
}

func (r *reader) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || !gjson.ValidBytes(b) {
		return // torn (being written) or foreign
	}
	line := gjson.ParseBytes(b)
	p := line.Get("payload")
	switch line.Get("type").Str {
	case "compacted":
		// The summary request's answer is recorded as an assistant
		// message just before: it is Codex's, not the agent's.
		if n := len(r.texts); n > 0 && strings.HasSuffix(p.Get("message").Str, strings.TrimSpace(r.texts[n-1])) {
			r.texts = r.texts[:n-1]
		}
		r.out.FilesTouched, r.seen = nil, map[string]bool{}
		r.out.Usage = transcript.Usage{}
	case "turn_context":
		if m := p.Get("model").Str; m != "" {
			r.model = sanitize.Excerpt(m, 80)
		}
	case "response_item":
		r.item(p, line.Get("timestamp").Str)
	case "event_msg":
		r.event(p)
	}
}

func (r *reader) item(p gjson.Result, at string) {
	switch p.Get("type").Str {
	case "function_call", "custom_tool_call":
		name := sanitize.Excerpt(p.Get("name").Str, 80)
		if len(r.calls) < maxCalls {
			r.calls[p.Get("call_id").Str] = call{name: name, input: callInput(cmpOr(p.Get("arguments").Str, p.Get("input").Str))}
		}
		if name == "update_plan" {
			r.plan(gjson.Get(p.Get("arguments").Str, "plan"), at)
		}
		return
	case "function_call_output", "custom_tool_call_output":
		r.result(p)
		return
	case "message":
	default:
		return
	}
	var parts []string
	for _, c := range p.Get("content").Array() {
		if t := c.Get("text"); t.Type == gjson.String && !imageMarker(t.Str) {
			parts = append(parts, t.Str)
		}
	}
	text := strings.TrimSpace(strings.Join(parts, "\n"))
	if text == "" {
		return
	}
	switch p.Get("role").Str {
	case "user":
		if notARequest(text) || transcript.IsHoldReason(text) {
			return
		}
		r.requests.Add(typedPart(text))
		r.out.LastPrompt, r.out.LastPromptAt = transcript.Request(typedPart(text)), sanitize.Excerpt(at, 40)
		r.out.PreviousPrompt = r.requests.Previous()
		// A request does not close an error: only a success does. That
		// the error came before it is said.
		r.out.ErrorBeforeRequest = r.lastError != nil
	case "assistant":
		r.texts = append(r.texts, text)
		if len(r.texts) > 3 {
			r.texts = r.texts[1:]
		}
	}
}

// notARequest: the user-role messages Codex writes itself.
func notARequest(text string) bool {
	for _, p := range []string{"<environment_context>", "<user_instructions>", "<turn_aborted>", "# AGENTS.md instructions",
		"<skill>", "<recommended_plugins>", "<user_shell_command>"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

func (r *reader) event(p gjson.Result) {
	switch p.Get("type").Str {
	case "token_count":
		info := p.Get("info")
		if !info.Exists() {
			return
		}
		last := info.Get("last_token_usage")
		if in := last.Get("input_tokens").Int(); in > 0 && in < 1e9 {
			r.out.Usage = transcript.Usage{Tokens: int(in), Output: int(last.Get("output_tokens").Int()), Known: true}
		}
		if w := info.Get("model_context_window").Int(); w > 0 && w < 1e9 {
			r.window = int(w)
		}
		r.out.Usage.Window = r.window
	case "item_completed":
		r.completed(p.Get("item"))
	case "patch_apply_end":
		// 0.118–0.147 record a patch's files here (0.169 as a FileChange).
		if p.Get("success").Bool() {
			p.Get("changes").ForEach(func(path, _ gjson.Result) bool {
				r.touch(path.Str)
				return true
			})
		}
	}
}

// imageMarker is the text part Codex puts around an attached image
// ("<image name=[Image #1]>", "</image>"): the client's, not the words.
func imageMarker(s string) bool {
	s = strings.TrimSpace(s)
	return s == "</image>" || strings.HasPrefix(s, "<image name=") && strings.HasSuffix(s, ">") && !strings.Contains(s, "\n")
}

// typedPart is what the person typed of a request Codex Desktop wrapped
// with the files it mentions ("# Files mentioned by the user: … ## My
// request for Codex: …"); the text as it is otherwise.
func typedPart(text string) string {
	const marker = "## My request for Codex:"
	if i := strings.LastIndex(text, marker); i >= 0 && strings.HasPrefix(text, "# Files mentioned by the user") {
		if typed := strings.TrimSpace(text[i+len(marker):]); typed != "" {
			return typed
		}
	}
	return text
}

// plan is the list an update_plan call sets, whole: the newest stands.
func (r *reader) plan(steps gjson.Result, at string) {
	if !steps.IsArray() {
		return
	}
	r.out.Todos = nil
	for _, s := range steps.Array() {
		r.out.Todos = append(r.out.Todos, transcript.Todo{Content: sanitize.Excerpt(s.Get("step").Str, transcript.TaskRunes),
			Status: sanitize.Excerpt(s.Get("status").Str, 20)})
	}
	r.out.TasksChangedAt = sanitize.Excerpt(at, 40)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// maxCalls bounds the calls remembered for their results.
const maxCalls = 10000

type call struct{ name, input string }

// callInput says in one line what a call was made with: exec_command's
// or shell_command's command, else its arguments.
func callInput(arguments string) string {
	for _, k := range []string{"cmd", "command"} {
		if c := gjson.Get(arguments, k); c.Type == gjson.String {
			return sanitize.Excerpt(c.Str, transcript.InputRunes)
		}
	}
	return sanitize.Excerpt(arguments, transcript.InputRunes)
}

// exitCode is compiled on first use, not at the start of every hook (the
// hooks package imports this one for every agent): exec_command's header
// ("Process exited with code N") and shell_command's (0.118–0.119: "Exit
// code: N").
var exitCode = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(?:Process exited with code |Exit code: )(\d+)$`)
})

// patchApplied starts apply_patch's report of the files it changed.
const patchApplied = "Success. Updated the following files:"

// failedTool are the starts of an output Codex writes for a call that
// failed without running (a patch that did not apply, a write to a
// session that is gone).
var failedTool = []string{"apply_patch verification failed", "write_stdin failed", "exec_command failed"}

// result reads a tool's output as the model got it: the newest decides
// whether an error is open. A command's output says its exit code
// (Codex does not always record the command's own event).
func (r *reader) result(p gjson.Result) {
	r.lastError = nil
	out := p.Get("output").Str
	if o := gjson.Get(out, "output"); o.Type == gjson.String && gjson.Valid(out) {
		out = o.Str // a custom tool's output: {"output": …, "metadata": …}
	}
	c := r.calls[p.Get("call_id").Str]
	if rest, ok := strings.CutPrefix(out, patchApplied); ok {
		// apply_patch's own report (0.118 records no patch_apply_end):
		// a line per file, "A", "M" or "D" and its path.
		for _, line := range strings.Split(rest, "\n") {
			if _, path, ok := strings.Cut(strings.TrimSpace(line), " "); ok && len(line) > 2 {
				r.touch(path)
			}
		}
		return
	}
	for _, f := range failedTool {
		if strings.HasPrefix(out, f) {
			if c.name == "" {
				c.name, _, _ = strings.Cut(f, " ")
			}
			r.fail(c, out)
			return
		}
	}
	// Only Codex's header says how the command ended: the output after
	// it is the command's, and may print anything.
	header, body, hasBody := strings.Cut(out, "\nOutput:\n")
	m := exitCode().FindStringSubmatch(header)
	if m == nil || m[1] == "0" {
		return
	}
	if c.name == "" {
		c.name = "exec_command"
	}
	msg := "Exit code " + m[1]
	if hasBody {
		msg += "\n" + strings.TrimSpace(body)
	}
	r.fail(c, msg)
}

// fail records the newest tool result as a failure of the call c.
func (r *reader) fail(c call, msg string) {
	r.lastError = &transcript.ToolError{ToolCall: transcript.ToolCall{Tool: c.name, Input: c.input},
		Error: sanitize.Excerpt(msg, transcript.ErrorRunes)}
	r.out.ErrorBeforeRequest = false
}

// completed reads a finished item: the files a patch changed.
func (r *reader) completed(it gjson.Result) {
	switch it.Get("type").Str {
	case "FileChange":
		if it.Get("status").Str == "failed" {
			return
		}
		it.Get("changes").ForEach(func(path, _ gjson.Result) bool {
			r.touch(path.Str)
			return true
		})
	}
}

// touch records a file written, newest last, each once.
func (r *reader) touch(path string) {
	p := sanitize.Path(path, 500)
	if p == "" {
		return
	}
	if r.seen[p] {
		r.out.FilesTouched = removeString(r.out.FilesTouched, p)
	}
	r.seen[p] = true
	r.out.FilesTouched = append(r.out.FilesTouched, p)
	if n := len(r.out.FilesTouched); n > transcript.MaxFiles {
		delete(r.seen, r.out.FilesTouched[0])
		r.out.FilesTouched = r.out.FilesTouched[1:]
	}
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func (r *reader) finish() *Rollout {
	out := r.out
	out.OpenError = r.lastError
	if out.OpenError == nil {
		out.ErrorBeforeRequest = false
	}
	out.Usage.Model = r.model
	out.Texts = append(out.Texts, transcript.Excerpts(r.texts)...)
	return &out
}
