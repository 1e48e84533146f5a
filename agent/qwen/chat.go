// Package qwen is Qwen Code's side of the hook contract: its adapter
// (Claude-shaped payloads and replies, the whole compaction trio) and its
// chat record read into the transcript facts. What is written here was
// observed with the real Qwen Code 0.24.4 (testdata/qwen-0.24.4, recorded
// by e2e/recordqwen).
package qwen

import (
	"bytes"
	"context"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// Read reads the chat record at path (~/.qwen/projects/<project>/chats/
// <session>.jsonl) from at most opt.Budget bytes before its end, forward,
// line by line: Qwen Code appends, so the newest of each fact wins.
// Memory is bounded by opt.MaxLine, time by opt.Budget.
func Read(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
	r := &reader{calls: map[string]call{}}
	notes, err := transcript.ReadForward(ctx, path, opt, "chat record", r.line)
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

type call struct{ name, input string }

// maxCalls bounds the calls remembered for their results.
const maxCalls = 10000

func (r *reader) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || !gjson.ValidBytes(b) {
		return // torn (being written) or foreign
	}
	line := gjson.ParseBytes(b)
	parts := line.Get("message.parts").Array()
	switch line.Get("type").Str {
	case "user":
		// Only what a person typed: Qwen Code marks its own user-role
		// entries (reminders, a summary's restoration) otherwise.
		if line.Get("provenance").Str == "real_user" {
			r.Request(textOf(parts), line.Get("timestamp").Str)
		}
	case "assistant":
		r.assistant(parts, line)
	case "tool_result":
		r.result(parts, line.Get("toolCallResult"))
	case "system":
		if line.Get("subtype").Str == "chat_compression" {
			// What was written before is in the summary now; the context
			// size is unknown until the next reply.
			r.Files.Reset()
			r.Out.Usage = transcript.Usage{}
		}
	}
}

// textOf joins the text parts of an entry.
func textOf(parts []gjson.Result) string {
	var texts []string
	for _, p := range parts {
		if t := p.Get("text"); t.Type == gjson.String {
			texts = append(texts, t.Str)
		}
	}
	return strings.TrimSpace(strings.Join(texts, "\n"))
}

func (r *reader) assistant(parts []gjson.Result, line gjson.Result) {
	r.Model(line.Get("model").Str)
	if u := line.Get("usageMetadata.promptTokenCount").Int(); u > 0 && u < 1e9 {
		r.Out.Usage = transcript.Usage{Tokens: int(u), Output: int(line.Get("usageMetadata.candidatesTokenCount").Int()), Known: true}
	}
	r.Text(textOf(parts))
	for _, p := range parts {
		fc := p.Get("functionCall")
		if !fc.Exists() {
			continue
		}
		name := sanitize.Excerpt(fc.Get("name").Str, 80)
		if len(r.calls) < maxCalls {
			r.calls[fc.Get("id").Str] = call{name: name, input: callInput(fc.Get("args"))}
		}
		if name == "todo_write" {
			r.todos(fc.Get("args.todos"), line.Get("timestamp").Str)
		}
	}
}

// todos is the list a todo_write call sets, whole: the newest stands.
func (r *reader) todos(list gjson.Result, at string) {
	if !list.IsArray() {
		return
	}
	r.Out.Todos = nil
	for _, t := range list.Array() {
		r.Out.Todos = append(r.Out.Todos, transcript.Todo{Content: sanitize.Excerpt(t.Get("content").Str, transcript.TaskRunes),
			Status: sanitize.Excerpt(t.Get("status").Str, 20)})
	}
	r.Out.TasksChangedAt = sanitize.Excerpt(at, 40)
}

// callInput says in one line what a call was made with: its command or
// file, else its arguments.
func callInput(args gjson.Result) string {
	for _, k := range []string{"command", "file_path", "absolute_path", "path"} {
		if v := args.Get(k); v.Type == gjson.String {
			return sanitize.Excerpt(v.Str, transcript.InputRunes)
		}
	}
	return sanitize.Excerpt(args.Raw, transcript.InputRunes)
}

// result reads a tool's result: the newest says whether an error is open,
// and a file it wrote is touched. Qwen Code records each call's status
// (success, error, cancelled) and, for an edit or a write, the file.
func (r *reader) result(parts []gjson.Result, res gjson.Result) {
	for _, p := range parts {
		fr := p.Get("functionResponse")
		if !fr.Exists() {
			continue
		}
		c := r.calls[fr.Get("id").Str]
		if c.name == "" {
			c.name = sanitize.Excerpt(fr.Get("name").Str, 80)
		}
		switch res.Get("status").Str {
		case "error":
			msg := fr.Get("response.error").Str
			if msg == "" {
				msg = fr.Get("response.output").Str
			}
			r.Failed(transcript.ToolCall{Tool: c.name, Input: c.input}, msg)
		case "success":
			r.Succeeded()
			if path := res.Get("resultDisplay.filePath"); path.Type == gjson.String {
				r.Files.Touch(path.Str)
			}
		}
	}
}
