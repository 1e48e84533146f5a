// Package gemini holds what session-hooks knows of Gemini CLI 0.61.0's
// protocol (see docs/agents.md): for now, its transcript, the chat JSONL
// under ~/.gemini/tmp/<project>/chats, read into the facts the hooks
// render for Claude Code's transcripts.
package gemini

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// Chat is what a Gemini CLI chat says about the work in progress, in the
// shape the hooks render; Compressed says the history was rewritten by a
// compression (its summary, a <state_snapshot>, stands for what came
// before), and Facts.Compaction names the last one: the id of the
// summary's message, which a later rewrite (a resume) keeps.
type Chat struct {
	transcript.Facts
	Compressed bool
}

// maxMessages bounds the messages held while reading.
const maxMessages = 20000

// Read reads the chat at path: a header, then messages, each re-emitted
// under its id when it changes (the last one wins), and {"$set": …}
// patches (all the messages at once after a compression). It reads at
// most opt.Budget bytes before the end.
func Read(ctx context.Context, path string, opt transcript.Options) (*Chat, error) {
	f, start, err := transcript.OpenTail(path, opt.Budget)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &chat{byID: map[string]int{}, seen: map[string]bool{}, commands: map[string]string{}}
	br := bufio.NewReaderSize(f, 64<<10)
	// Before the chat record, Gemini CLI kept a session as one JSON
	// document (session-*.json, pretty-printed: its first line is "{"
	// alone). Read whole: the budget bounds the file; one past it is said
	// not read.
	head := make([]byte, 16)
	if n, _ := f.ReadAt(head, 0); string(bytes.TrimSpace(firstLine(head[:n]))) == "{" {
		if start > 0 {
			out := c.facts()
			out.Notes = append(out.Notes, "The session file is a session document over the "+strconv.FormatInt(opt.Budget>>20, 10)+" MiB read back; nothing was read from it.")
			return out, nil
		}
		return readDocument(br, opt)
	}
	first := start > 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && len(line) <= opt.MaxLine && !first {
			c.line(bytes.TrimSpace(line))
		}
		first = false
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return c.facts(), nil
}

type chat struct {
	messages []gjson.Result
	byID     map[string]int
	// seen are the ids of the tool calls the replies recorded; commands
	// are the shell calls' commands by id, from the replies' parts.
	seen     map[string]bool
	commands map[string]string
}

// firstLine is b up to its first newline.
func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// readDocument reads a session kept as one JSON document: its messages,
// as the chat record's. One it cannot read is said so in a note.
func readDocument(r io.Reader, opt transcript.Options) (*Chat, error) {
	c := &chat{byID: map[string]int{}, seen: map[string]bool{}, commands: map[string]string{}}
	b, err := io.ReadAll(io.LimitReader(r, opt.Budget+1))
	if err != nil {
		return nil, err
	}
	msgs := gjson.GetBytes(b, "messages")
	if int64(len(b)) > opt.Budget || !gjson.ValidBytes(b) || !msgs.IsArray() {
		out := c.facts()
		out.Notes = append(out.Notes, "The session file is neither a chat record nor a session document Gemini CLI writes; nothing was read from it.")
		return out, nil
	}
	for _, m := range msgs.Array() {
		if t := m.Get("type").Str; t == "user" || t == "gemini" {
			c.add(m)
		}
	}
	return c.facts(), nil
}

func (c *chat) line(b []byte) {
	if len(b) == 0 || !gjson.ValidBytes(b) {
		return
	}
	l := gjson.ParseBytes(b)
	if msgs := l.Get("messages"); msgs.IsArray() && !l.Get("type").Exists() {
		// A session document written on one line.
		for _, m := range msgs.Array() {
			if t := m.Get("type").Str; t == "user" || t == "gemini" {
				c.add(m)
			}
		}
		return
	}
	if msgs := l.Get(`\$set.messages`); msgs.IsArray() {
		c.messages, c.byID = nil, map[string]int{}
		for _, m := range msgs.Array() {
			c.add(m)
		}
		return
	}
	if t := l.Get("type").Str; t == "user" || t == "gemini" {
		c.add(l)
	}
}

func (c *chat) add(m gjson.Result) {
	id := m.Get("id").Str
	if i, ok := c.byID[id]; ok && id != "" {
		c.messages[i] = m
		return
	}
	if len(c.messages) >= maxMessages {
		return
	}
	c.byID[id] = len(c.messages)
	c.messages = append(c.messages, m)
}

// failure is a failed call's response as text: its error, else its
// output, else its content.
func failure(response gjson.Result) string {
	for _, k := range []string{"error", "output"} {
		if v := response.Get(k); v.Type == gjson.String && v.Str != "" {
			return v.Str
		}
	}
	return text(response)
}

// text is a message's content as text.
func text(m gjson.Result) string {
	content := m.Get("content")
	if content.Type == gjson.String {
		return content.Str
	}
	var parts []string
	for _, p := range content.Array() {
		if t := p.Get("text"); t.Type == gjson.String {
			parts = append(parts, t.Str)
		}
	}
	return strings.Join(parts, "\n")
}

// request is what the user typed in a user message: the hooks' own
// <hook_context> parts and Gemini CLI's <session_context> are not.
func request(s string) string {
	for {
		i := strings.Index(s, "<hook_context>")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "</hook_context>")
		if j < 0 {
			s = s[:i]
			break
		}
		s = s[:i] + s[i+j+len("</hook_context>"):]
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<session_context>") || strings.HasPrefix(s, "<state_snapshot>") || protocol.IsHoldReason(s) {
		return ""
	}
	return s
}

func (c *chat) facts() *Chat {
	out := &Chat{}
	var texts []string
	var requests transcript.Requests
	// The reply that follows a compression's summary is Gemini CLI's
	// canned acknowledgement, not the model's words.
	afterSummary := false
	for _, m := range c.messages {
		canned := afterSummary
		afterSummary = false
		switch m.Get("type").Str {
		case "user":
			t := text(m)
			if strings.Contains(t, "<state_snapshot>") {
				out.Compressed, out.Compaction = true, compactionName(m, t)
				out.FilesTouched, afterSummary = nil, true
			}
			if r := request(t); r != "" {
				requests.Add(r)
				out.LastPrompt, out.LastPromptAt = transcript.Request(r), sanitize.Excerpt(m.Get("timestamp").Str, 40)
				out.PreviousPrompt = requests.Previous()
				// A request does not close an error: only a success does.
				out.ErrorBeforeRequest = out.OpenError != nil
			}
			c.responses(m, out)
		case "gemini":
			if t := strings.TrimSpace(text(m)); t != "" && !canned {
				texts = append(texts, t)
			}
			if in := m.Get("tokens.input").Int(); in > 0 && in < 1e9 {
				out.Usage = transcript.Usage{Tokens: int(in), Output: int(m.Get("tokens.output").Int()), Known: true,
					Model: sanitize.Excerpt(m.Get("model").Str, 80)}
			}
			c.callsIn(m)
			c.calls(m, out)
		}
	}
	if len(texts) > 3 {
		texts = texts[len(texts)-3:]
	}
	out.Texts = append(out.Texts, transcript.Excerpts(texts)...)
	return out
}

// shellExit reads a shell call's output as the model got it ("Output:
// …", "Exit Code: N", "Process Group PGID: …"): a non-zero exit code and
// the output before it; "" when the command succeeded or the call is not
// a shell command.
//
// Gemini CLI writes its fields after the command's output, which may
// print "Exit Code: 1" itself: the code is read only from Gemini's
// trailer. Where the record keeps the output apart (resultDisplay), the
// trailer is what follows it; else it is the run of Gemini's own field
// lines at the end.
func shellExit(name, res, display string) (code, output string) {
	if name != "run_shell_command" {
		return "", ""
	}
	lines := strings.Split(res, "\n")
	trailer := len(lines)
	for trailer > 0 && geminiField(lines[trailer-1]) {
		trailer--
	}
	if display != "" {
		if i := strings.LastIndex(res, "Output: "+display); i >= 0 {
			before := strings.Count(res[:i+len("Output: "+display)], "\n") + 1
			trailer = max(trailer, before)
		}
	}
	var out []string
	for i, line := range lines {
		if c, ok := strings.CutPrefix(line, "Exit Code: "); ok && i >= trailer {
			if c = strings.TrimSpace(c); c != "0" && c != "" {
				code = c
			}
			break
		}
		if o, ok := strings.CutPrefix(line, "Output: "); ok && len(out) == 0 {
			line = o
		} else if len(out) == 0 {
			continue // the wrapper, before the output
		}
		out = append(out, line)
	}
	if code == "" {
		return "", ""
	}
	return code, strings.TrimSpace(strings.Join(out, "\n"))
}

// geminiField is a line of Gemini CLI's own after a command's output.
func geminiField(line string) bool {
	for _, f := range []string{"Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: ", "</untrusted_context>"} {
		if strings.HasPrefix(line, f) {
			return true
		}
	}
	return line == ""
}

// compactionName names a compression by its summary's message: its id,
// else (a chat that gives none) a hash of its text.
func compactionName(m gjson.Result, text string) string {
	if id := m.Get("id").Str; id != "" {
		return sanitize.Excerpt(id, 80)
	}
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// responses reads the tool results of a user message that no reply's
// tool calls recorded: a compression rewrites the history as the model
// got it, the call in the reply's parts and its result in the next user
// message.
func (c *chat) responses(m gjson.Result, out *Chat) {
	for _, p := range m.Get("content").Array() {
		fr := p.Get("functionResponse")
		if !fr.Exists() || c.seen[fr.Get("id").Str] {
			continue
		}
		out.OpenError = nil
		name := fr.Get("name").Str
		if code, output := shellExit(name, fr.Get("response.output").Str, ""); code != "" {
			out.OpenError = &transcript.ToolError{ToolCall: transcript.ToolCall{Tool: sanitize.Excerpt(name, 80),
				Input: sanitize.Excerpt(c.commands[fr.Get("id").Str], transcript.InputRunes)},
				Error: sanitize.Excerpt("Exit code "+code+"\n"+output, transcript.ErrorRunes)}
		}
	}
}

// callsIn notes the commands of the shell calls in a reply's parts, for
// the results that follow it.
func (c *chat) callsIn(m gjson.Result) {
	for _, p := range m.Get("content").Array() {
		if fc := p.Get("functionCall"); fc.Exists() && fc.Get("name").Str == "run_shell_command" && len(c.commands) < maxMessages {
			c.commands[fc.Get("id").Str] = fc.Get("args.command").Str
		}
	}
}

// calls reads a reply's tool calls: the files written, and whether the
// newest call failed.
func (c *chat) calls(m gjson.Result, out *Chat) {
	for _, call := range m.Get("toolCalls").Array() {
		name, status := call.Get("name").Str, call.Get("status").Str
		out.OpenError, out.ErrorBeforeRequest = nil, false
		if todos := call.Get("args.todos"); name == "write_todos" && status == "success" && todos.IsArray() {
			out.Todos = nil
			for _, t := range todos.Array() {
				out.Todos = append(out.Todos, transcript.Todo{Content: sanitize.Excerpt(t.Get("description").Str, transcript.TaskRunes),
					Status: sanitize.Excerpt(t.Get("status").Str, 20)})
			}
			out.TasksChangedAt = sanitize.Excerpt(call.Get("timestamp").Str, 40)
		}
		c.seen[call.Get("id").Str] = true
		if code, output := shellExit(name, call.Get("result.0.functionResponse.response.output").Str, call.Get("resultDisplay").Str); code != "" {
			// Gemini CLI records a command that exits non-zero as a
			// success: its exit code is only in the output.
			out.OpenError = &transcript.ToolError{ToolCall: transcript.ToolCall{Tool: sanitize.Excerpt(name, 80),
				Input: sanitize.Excerpt(call.Get("args.command").Str, transcript.InputRunes)},
				Error: sanitize.Excerpt("Exit code "+code+"\n"+output, transcript.ErrorRunes)}
			continue
		}
		if status == "error" {
			input := call.Get("args.command").Str
			if input == "" {
				input = call.Get("args").Raw
			}
			out.OpenError = &transcript.ToolError{ToolCall: transcript.ToolCall{Tool: sanitize.Excerpt(name, 80), Input: sanitize.Excerpt(input, transcript.InputRunes)},
				Error: sanitize.Excerpt(failure(call.Get("result.0.functionResponse.response")), transcript.ErrorRunes)}
			continue
		}
		if (name == "write_file" || name == "replace") && status == "success" {
			if p := sanitize.Path(call.Get("args.file_path").Str, 500); p != "" && !contains(out.FilesTouched, p) {
				out.FilesTouched = append(out.FilesTouched, p)
				if len(out.FilesTouched) > transcript.MaxFiles {
					out.FilesTouched = out.FilesTouched[1:]
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
