// Package opencode is OpenCode's side of the hook contract. OpenCode runs
// no shell hooks: install writes a plugin (plugin.js) that runs the binary
// on its events with the shared payload, the session given as a file in
// the shape `opencode export` writes (info, then the messages with their
// parts), which Read reads. What is written here was observed with the
// real OpenCode 1.18.33 (testdata/opencode-1.18.33, recorded by
// e2e/recordopencode) and its exports since 1.2.
package opencode

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// Read reads the session at path, message by message, oldest first: the
// newest of each fact wins. Memory is bounded by opt.MaxLine (a longer
// message is skipped), the messages read by opt.Budget: those that start
// more than opt.Budget bytes before the end are skimmed over unread.
func Read(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
	f, size, err := transcript.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	s := &skim{r: br, pos: func() int64 { return offset(f, br) }}
	r := &reader{}
	var skipped, oversized int
	read := func(b []byte, fits bool, start int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch {
		case !fits:
			oversized++
		case start < size-opt.Budget:
			skipped++
		default:
			r.message(gjson.ParseBytes(b))
		}
		return nil
	}
	err = s.document(1<<20, opt.MaxLine, r.info, read)
	if errors.Is(err, errShape) {
		r.Out.Notes = append(r.Out.Notes, "The session file is not a session as OpenCode exports it ("+err.Error()+"); what it held before that was read.")
	} else if err != nil {
		return nil, err
	}
	if skipped > 0 {
		r.Out.Notes = append(r.Out.Notes, fmt.Sprintf("only the messages in the last %s of the session were read (%d older ones skipped)", mib(opt.Budget), skipped))
	}
	if oversized > 0 {
		r.Out.Notes = append(r.Out.Notes, fmt.Sprintf("%d message(s) of the session over %s were skipped", oversized, mib(int64(opt.MaxLine))))
	}
	return r.Finish(), nil
}

// mib says a size in MiB, or in bytes below one.
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// offset is how far into the file the reader is.
func offset(f interface {
	Seek(int64, int) (int64, error)
}, br *bufio.Reader) int64 {
	at, err := f.Seek(0, 1)
	if err != nil {
		return 0
	}
	return at - int64(br.Buffered())
}

type reader struct {
	transcript.Tally
	// compacting is the compaction asked for whose summary has not come
	// yet.
	compacting string
}

func (r *reader) info(b []byte) {
	r.Model(gjson.GetBytes(b, "model.id").Str)
}

func (r *reader) message(m gjson.Result) {
	info := m.Get("info")
	parts := m.Get("parts").Array()
	switch info.Get("role").Str {
	case "user":
		r.user(parts, info)
	case "assistant":
		r.assistant(parts, info)
	}
}

// user reads a user-role message: a compaction marks where the context
// was summarised; what a person typed is its text parts that OpenCode
// did not make itself (synthetic: a continuation after a compaction or a
// subtask, a file's contents; ignored: not sent).
func (r *reader) user(parts []gjson.Result, info gjson.Result) {
	var texts []string
	for _, p := range parts {
		switch p.Get("type").Str {
		case "compaction":
			// OpenCode asks for the summary with this message, before the
			// compaction's hook runs: it takes effect with the summary.
			r.compacting = sanitize.Excerpt(info.Get("id").Str, 80)
		case "text":
			if !p.Get("synthetic").Bool() && !p.Get("ignored").Bool() {
				texts = append(texts, p.Get("text").Str)
			}
		}
	}
	r.Request(strings.TrimSpace(strings.Join(texts, "\n")), at(info.Get("time.created")))
}

// at is OpenCode's time (milliseconds since the epoch) as the snapshot
// keeps times.
func at(ms gjson.Result) string {
	if ms.Type != gjson.Number || ms.Int() <= 0 {
		return ""
	}
	return sanitize.Excerpt(msTime(ms.Int()), 40)
}

func (r *reader) assistant(parts []gjson.Result, info gjson.Result) {
	if info.Get("summary").Bool() {
		r.summarised(info)
		return
	}
	r.Model(info.Get("modelID").Str)
	t := info.Get("tokens")
	if in := t.Get("input").Int() + t.Get("cache.read").Int() + t.Get("cache.write").Int(); in > 0 && in < 1e9 {
		r.Out.Usage = transcript.Usage{Tokens: int(in), Output: int(t.Get("output").Int()), Known: true}
	}
	r.Out.InFlight = nil
	for _, p := range parts {
		switch p.Get("type").Str {
		case "text":
			if !p.Get("synthetic").Bool() {
				r.Text(strings.TrimSpace(p.Get("text").Str))
			}
		case "tool":
			r.tool(p, info)
		}
	}
}

// summarised reads a compaction's summary (OpenCode's words, not the
// agent's; its usage is the summary call's): what was written before is
// in the summary now, and the context size is unknown until the next
// reply.
func (r *reader) summarised(info gjson.Result) {
	r.Files.Reset()
	r.Out.Usage = transcript.Usage{}
	r.Out.Compaction = cmp.Or(r.compacting, sanitize.Excerpt(info.Get("id").Str, 80))
	r.compacting = ""
}

// writers are the tools that write the file their filePath names.
var writers = map[string]bool{"edit": true, "write": true, "multiedit": true}

// tool reads a tool call with its state: the newest finished one says
// whether an error is open; a write that completed touches its files.
func (r *reader) tool(p, info gjson.Result) {
	name := sanitize.Excerpt(p.Get("tool").Str, 80)
	st := p.Get("state")
	input := st.Get("input")
	call := transcript.ToolCall{Tool: name, Input: callInput(input)}
	switch st.Get("status").Str {
	case "error":
		r.Failed(call, st.Get("error").Str)
	case "completed":
		r.Succeeded()
		r.completed(name, input, info)
	case "pending", "running":
		r.Out.InFlight = &call
	}
}

func (r *reader) completed(name string, input, info gjson.Result) {
	switch {
	case writers[name]:
		r.Files.Touch(input.Get("filePath").Str)
	case name == "patch" || name == "apply_patch":
		for _, path := range transcript.PatchPaths(input.Get("patchText").Str + "\n" + input.Get("patch").Str) {
			r.Files.Touch(path)
		}
	case name == "todowrite":
		r.todos(input.Get("todos"), info)
	}
}

// todos is the list a todowrite call sets, whole: the newest stands.
func (r *reader) todos(list, info gjson.Result) {
	if !list.IsArray() {
		return
	}
	r.Out.Todos = []transcript.Todo{}
	for _, t := range list.Array() {
		if !t.IsObject() {
			continue
		}
		r.Out.Todos = append(r.Out.Todos, transcript.Todo{Content: sanitize.Excerpt(t.Get("content").Str, transcript.TaskRunes),
			Status: sanitize.Excerpt(t.Get("status").Str, 20)})
	}
	r.Out.TasksChangedAt = at(info.Get("time.created"))
}

// callInput says in one line what a call was made with: its command or
// file, else its arguments.
func callInput(args gjson.Result) string {
	for _, k := range []string{"command", "filePath", "path", "pattern", "url"} {
		if v := args.Get(k); v.Type == gjson.String {
			return sanitize.Excerpt(v.Str, transcript.InputRunes)
		}
	}
	return sanitize.Excerpt(args.Raw, transcript.InputRunes)
}
