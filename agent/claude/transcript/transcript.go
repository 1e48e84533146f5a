// Package transcript reads what a coding agent was doing from a Claude Code
// session transcript (JSONL, one entry per line, appended as the session
// goes). It reads from the end of the file within a byte budget, so its time
// and memory do not grow with the transcript, and it accesses fields with
// gjson instead of unmarshalling whole entries.
//
// Everything it returns is data taken from the conversation: secrets are
// redacted and control characters removed before it leaves the package.
package transcript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/session-hooks/session-hooks/sanitize"

	"github.com/tidwall/gjson"
)

// Facts is what the end of a transcript says about the work in progress.
type Facts struct {
	// Texts are the latest distinct assistant texts, oldest first, each cut
	// to ExcerptRunes with "..." appended when longer.
	Texts []string
	// LastPrompt is the user's latest prompt (not a slash command or a tool
	// result), cut to PromptRunes.
	LastPrompt string
	// Todos is the TodoWrite list of the latest call, when the session used
	// that tool (tasks persisted by newer versions are read by Tasks).
	Todos []Todo
	// FilesTouched are paths written or edited since the last compaction,
	// in the order of their latest change.
	FilesTouched []string
	// Notes say what could not be read, one line each.
	Notes []string
}

// Todo is one item of the agent's task list.
type Todo struct {
	Content string
	Status  string // pending, in_progress, completed
}

// Options bound the work of Read.
type Options struct {
	Budget   int64 // bytes read from the end at most
	MaxLine  int   // longer lines are skipped unparsed
	MaxTexts int
}

// Limits of the excerpts Read returns.
const (
	ExcerptRunes = 200
	PromptRunes  = 500
	maxFiles     = 200
)

// DefaultOptions read up to 32 MiB back; a modern transcript has far more
// bookkeeping than conversation near its end, so 50 lines are not enough.
var DefaultOptions = Options{Budget: 32 << 20, MaxLine: 8 << 20, MaxTexts: 3}

// Read walks the transcript back from its end until it has found what it
// needs or spent its budget. A missing or unreadable file is an error; what
// is merely incomplete is said in Facts.Notes.
func Read(ctx context.Context, path string, opt Options) (*Facts, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	facts, err := ReadAt(ctx, f, fi.Size(), opt)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return facts, nil
}

// ReadAt is Read on a transcript's content of the given size.
func ReadAt(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Facts, error) {
	tr := newTailReader(r, size, opt.Budget, opt.MaxLine)
	c := collector{facts: &Facts{}, maxTexts: opt.MaxTexts, seenTexts: map[string]bool{}, seenFiles: map[string]bool{}}
	for !c.done() {
		if ctx.Err() != nil {
			c.facts.Notes = append(c.facts.Notes, "transcript reading stopped at the hook's deadline")
			break
		}
		line, oversized, err := tr.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		} else if oversized {
			continue
		}
		c.add(line)
	}
	c.finish()
	if tr.Truncated && !c.done() {
		c.facts.Notes = append(c.facts.Notes, fmt.Sprintf("only the last %d MiB of the transcript were read", opt.Budget>>20))
	}
	if tr.Oversized > 0 {
		c.facts.Notes = append(c.facts.Notes, fmt.Sprintf("%d transcript line(s) over %d MiB were skipped", tr.Oversized, opt.MaxLine>>20))
	}
	return c.facts, nil
}

// openRegular opens path for reading only if it is a regular file, so a
// FIFO or a device named as the transcript cannot block the hook.
func openRegular(path string) (*os.File, error) {
	if path == "" {
		return nil, errors.New("no transcript path in the hook input")
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.Open(path)
}

// collector accumulates facts from lines seen newest first.
type collector struct {
	facts        *Facts
	maxTexts     int
	seenTexts    map[string]bool
	seenFiles    map[string]bool
	texts        []string // newest first
	files        []string // newest first
	pastBoundary bool     // lines from here on are older than the last compaction
	todosFound   bool
}

// done says when walking further back cannot change the facts: a TodoWrite
// list is taken when met on the way, not searched for, since the newer task
// tools never write one.
func (c *collector) done() bool {
	return len(c.texts) >= c.maxTexts && c.facts.LastPrompt != "" && c.pastBoundary
}

func (c *collector) add(line []byte) {
	if !wholeObject(line) {
		return // torn (being written) or foreign
	}
	entry := parse(line)
	switch entry.Get("type").String() {
	case "system":
		if entry.Get("subtype").String() == "compact_boundary" {
			c.pastBoundary = true
		}
	case "last-prompt":
		c.prompt(entry.Get("lastPrompt").String())
	case "user":
		c.userEntry(entry)
	case "assistant":
		blocks := entry.Get("message.content").Array()
		for i := len(blocks) - 1; i >= 0; i-- {
			c.block(blocks[i])
		}
	}
}

// wholeObject accepts a line that is a complete JSON object. Lines up to
// 256 KiB are validated; longer ones (tool results, mostly) only have to
// start and end as an object, since gjson reads the fields asked for
// without walking the rest and is safe on malformed input.
func wholeObject(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return false
	}
	return len(line) > 256<<10 || gjson.ValidBytes(line)
}

func parse(line []byte) gjson.Result { return gjson.ParseBytes(line) }

func (c *collector) userEntry(entry gjson.Result) {
	if entry.Get("isMeta").Bool() || entry.Get("isCompactSummary").Bool() {
		return
	}
	content := entry.Get("message.content")
	if content.Type == gjson.String {
		c.prompt(content.String())
		return
	}
	var text []string
	for _, b := range content.Array() {
		switch b.Get("type").String() {
		case "tool_result":
			return // a tool's answer, not the user's words
		case "text":
			text = append(text, b.Get("text").String())
		}
	}
	c.prompt(strings.Join(text, "\n"))
}

// prompt keeps the newest prompt typed by the user; slash commands and
// their output are recorded as user entries too, wrapped in tags.
func (c *collector) prompt(s string) {
	s = strings.TrimSpace(s)
	if c.facts.LastPrompt != "" || s == "" || strings.HasPrefix(s, "<") {
		return
	}
	c.facts.LastPrompt = sanitize.Excerpt(s, PromptRunes)
}

func (c *collector) block(b gjson.Result) {
	switch b.Get("type").String() {
	case "text":
		if len(c.texts) >= c.maxTexts {
			return
		}
		t := sanitize.Excerpt(b.Get("text").String(), ExcerptRunes)
		if t != "" && !c.seenTexts[t] {
			c.seenTexts[t] = true
			c.texts = append(c.texts, t)
		}
	case "tool_use":
		c.toolUse(b.Get("name").String(), b.Get("input"))
	}
}

func (c *collector) toolUse(name string, input gjson.Result) {
	switch name {
	case "TodoWrite":
		if c.todosFound {
			return
		}
		c.todosFound = true
		for _, t := range input.Get("todos").Array() {
			c.facts.Todos = append(c.facts.Todos, Todo{
				Content: sanitize.Excerpt(t.Get("content").String(), ExcerptRunes),
				Status:  sanitize.Clean(t.Get("status").String())})
		}
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		if c.pastBoundary || len(c.files) >= maxFiles {
			return
		}
		p := input.Get("file_path").String()
		if p == "" {
			p = input.Get("notebook_path").String()
		}
		if p = sanitize.Clean(p); p != "" && !c.seenFiles[p] {
			c.seenFiles[p] = true
			c.files = append(c.files, p)
		}
	}
}

func (c *collector) finish() {
	for i := len(c.texts) - 1; i >= 0; i-- {
		c.facts.Texts = append(c.facts.Texts, c.texts[i])
	}
	for i := len(c.files) - 1; i >= 0; i-- {
		c.facts.FilesTouched = append(c.facts.FilesTouched, c.files[i])
	}
}
