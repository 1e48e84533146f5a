// Package transcript is what every agent's transcript reader returns: the
// facts of the work in progress (the request, the agent's latest texts, its
// task list, the files it wrote, the tool call that failed, the context in
// use), the limits every reader holds to, and the safe opening of the file
// a hook's payload names. The readers, one per agent, live with their agent
// (agent/claude, agent/codex, agent/gemini); the hooks read only this.
//
// Everything a reader returns is data taken from the conversation: secrets
// are redacted and control characters removed before it leaves the reader.
package transcript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/internal/safefile"
	"github.com/session-hooks/session-hooks/internal/sanitize"
)

// Facts is what a transcript says about the work in progress.
type Facts struct {
	// Texts are the latest assistant texts, oldest first: the newest whole
	// up to LatestRunes, the ones before it up to ExcerptRunes, with "..."
	// where cut.
	Texts []string
	// LastPrompt is the user's latest request as a person gave it: a typed
	// prompt, or a slash command with its arguments (see Request).
	LastPrompt string
	// LastPromptAt and TasksChangedAt are the transcript's timestamps of
	// the request and of the newest TodoWrite, TaskCreate or TaskUpdate
	// call; "" when unknown.
	LastPromptAt, TasksChangedAt string
	// PermissionMode is the newest the transcript records (default,
	// plan, acceptEdits…); "" when none.
	PermissionMode string
	// Plan is the latest plan the agent proposed (ExitPlanMode) since the
	// last compaction, and whether the user approved it; nil when none.
	Plan *Plan
	// PreviousPrompt is the request before it, when the last one is terse
	// ("yes", "3", "continue") and means nothing alone.
	PreviousPrompt string
	// FollowUps are what the user said after the last request, oldest
	// first: the words typed when rejecting a tool call, the answers to
	// AskUserQuestion.
	FollowUps []string
	// Todos is the list of the newest TodoWrite call, however far back.
	Todos []Todo
	// Tasks is the TaskCreate/TaskUpdate list rebuilt from the calls and
	// their results, for when Claude Code's task directory is missing;
	// nil when the session used no such tool.
	Tasks []Todo
	// FilesTouched are the files written or edited successfully since the
	// last compaction, by the agent or its subagents, in the order of
	// their latest change.
	FilesTouched []string
	// OpenError is the newest tool result, when it is an error.
	// ErrorBeforeRequest says that OpenError came before LastPrompt: the
	// user asked something after it, so it is no longer what is open.
	ErrorBeforeRequest bool
	OpenError          *ToolError
	// InFlight is a tool call at the very end with no result yet.
	InFlight *ToolCall
	// Usage is the context in use, as the latest main-chain reply after
	// the last compaction reported it.
	Usage Usage
	// Compaction names the last compaction the transcript shows, "" when
	// none. Only the readers of clients with no event after a compaction
	// (Gemini CLI) set it: the hooks find a compaction there, and deliver
	// its recovery once per name.
	Compaction string
	// Notes say what could not be read, one line each.
	Notes []string
}

// Todo is one item of the agent's task list.
type Todo struct {
	Content string
	Status  string // pending, in_progress, completed
}

// ToolCall is a tool and what it was called with, in one line.
type ToolCall struct {
	Tool  string
	Input string // the command, the file, or the input as JSON, cut
}

// ToolError is a tool call that failed, and the start of its error.
type ToolError struct {
	ToolCall
	Error string // the first lines of the error, folded to one line
}

// Plan is a plan proposed with ExitPlanMode.
type Plan struct {
	Text     string
	Approved bool
}

// Options bound the work of Read.
type Options struct {
	Budget  int64 // bytes read from the end at most
	MaxLine int   // longer lines are skipped unparsed
}

// Limits of the excerpts Read returns.
const (
	LatestRunes  = 1500
	ExcerptRunes = 500
	PromptRunes  = 1000 // what the user said after the request
	// RequestRunes bounds a request kept whole; a longer one keeps its
	// beginning and its end (see Request).
	RequestRunes = 6000
	TaskRunes    = 200
	ErrorRunes   = 600
	InputRunes   = 200
	// MaxFiles is how many files a transcript reader lists at most, the
	// newest kept: every agent's reader holds to it.
	MaxFiles = 200
)

// DefaultOptions read up to 32 MiB back: a task list or a TodoWrite may
// lie far back, and a modern transcript has far more bookkeeping than
// conversation.
var DefaultOptions = Options{Budget: 32 << 20, MaxLine: 8 << 20}

// Usage is the context an agent is using, as its latest reply reported it.
type Usage struct {
	Tokens int    // input + cache creation + cache read tokens of the latest reply
	Output int    // its output tokens: Claude Code's context_tokens on resume and fork counts them too
	Model  string // the model of that reply
	// Known is false when no reply has reported usage since the last
	// compaction (or at all): the context size is then not known.
	Known bool
	// Window is the model's context window as the transcript states it
	// (Codex's model_context_window); 0 when it does not (Claude Code's
	// window comes from the model's name).
	Window int
}

// Request is a user's request as they wrote it, line breaks and all,
// cleaned: whole up to RequestRunes, else its beginning and its end (the
// ask usually comes last, after a pasted log) around a marker that says
// how much was cut.
func Request(s string) string {
	return sanitize.Middle(sanitize.Clean(strings.TrimSpace(s)), RequestRunes)
}

// HoldHeading begins every reason a held stop gives (protocol.Hold). A
// client may send the reason back as the next request (Gemini CLI's
// AfterAgent retry): a reader that finds it there knows it is ours, not
// the user's.
const HoldHeading = "Before you stop (long-running agent checks):"

// IsHoldReason says whether a request is a held stop's reason.
func IsHoldReason(request string) bool {
	return strings.HasPrefix(strings.TrimSpace(request), HoldHeading)
}

// Excerpts are the agent's texts, oldest first, as a snapshot keeps
// them: each cleaned and cut, the newest kept longest.
func Excerpts(texts []string) []string {
	out := make([]string, 0, len(texts))
	for i, t := range texts {
		n := ExcerptRunes
		if i == len(texts)-1 {
			n = LatestRunes
		}
		out = append(out, sanitize.Excerpt(t, n))
	}
	return out
}

// Terse says whether a request means little alone: a word or two, a
// number, "yes", "continue".
func Terse(s string) bool {
	return utf8.RuneCountInString(s) <= 20 && len(strings.Fields(s)) <= 3
}

// Requests follows a session's requests, oldest first, for the one that
// set the work: after "go on" and then "what next?", the request before
// the last is terse too, and the task is the one before that.
type Requests struct{ last, before, setting string }

// Add records the next request, as typed.
func (q *Requests) Add(request string) {
	if q.last != "" {
		q.before = q.last
		if !Terse(q.last) {
			q.setting = q.last
		}
	}
	q.last = request
}

// Previous is the request to keep beside a terse last one, cleaned: the
// newest that is not terse, else the one just before; "" when the last
// one means something alone.
func (q Requests) Previous() string {
	switch {
	case q.last == "" || !Terse(Request(q.last)):
		return ""
	case q.setting != "":
		return Request(q.setting)
	}
	return Request(q.before)
}

// EachLine calls fn with each line of r, oldest first, without its
// newline, and skips (and counts) the lines longer than max without
// holding them: the readers of transcripts appended line by line (Codex's
// rollout, Copilot's events) read forward from OpenTail with it.
func EachLine(ctx context.Context, r io.Reader, max int, fn func([]byte)) (oversized int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	skipping := false
	for {
		if err := ctx.Err(); err != nil {
			return oversized, err
		}
		chunk, err := br.ReadSlice('\n')
		switch {
		case skipping:
		case len(line)+len(chunk) > max+1: // +1: the newline
			skipping, line = true, line[:0]
			oversized++
		default:
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(line) > 0 { // empty while skipping
			fn(bytes.TrimSuffix(line, []byte("\n")))
		}
		line, skipping = line[:0], false
		if err == io.EOF {
			return oversized, nil
		}
		if err != nil {
			return oversized, err
		}
	}
}

// ReadForward calls fn with each line of the file at path, oldest first,
// from opt.Budget bytes before its end (a first line the budget cuts is
// skipped), lines over opt.MaxLine skipped unread; notes say what was not
// read, naming the file what ("rollout"): the readers of transcripts
// appended line by line (Codex's rollout, Copilot's events) read so.
func ReadForward(ctx context.Context, path string, opt Options, what string, fn func(line []byte)) (notes []string, err error) {
	f, start, err := OpenTail(path, opt.Budget)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	first := start > 0 // read from the middle, the first line is a piece of one
	oversized, err := EachLine(ctx, f, opt.MaxLine, func(line []byte) {
		if !first {
			fn(line)
		}
		first = false
	})
	if err != nil {
		return nil, err
	}
	if start > 0 {
		notes = append(notes, fmt.Sprintf("only the last %d MiB of the %s were read", opt.Budget>>20, what))
	}
	if oversized > 0 {
		notes = append(notes, fmt.Sprintf("%d %s line(s) over %d MiB were skipped", oversized, what, opt.MaxLine>>20))
	}
	return notes, nil
}

// openRegular opens path for reading only if it is a regular file, so a
// FIFO or a device named as the transcript cannot block the hook.
func openRegular(path string) (*os.File, error) {
	if path == "" {
		return nil, errors.New("no transcript path in the hook input")
	}
	return safefile.Open(path)
}

// OpenTail opens the regular file at path (never blocking on a FIFO or
// a device a transcript path may name) at budget bytes before its end, or
// at its start: start says where, and a start past 0 means the first line
// read is a piece of one. Other agents' transcript readers start there.
func OpenTail(path string, budget int64) (f *os.File, start int64, err error) {
	f, size, err := Open(path)
	if err != nil {
		return nil, 0, err
	}
	start = max(size-budget, 0)
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, start, nil
}

// Open opens the regular file at path for reading, never blocking on a
// FIFO or a device a transcript path may name, and says its size.
func Open(path string) (*os.File, int64, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// ModelWindow is the context window of a model by its name, in tokens; 0
// when the name says nothing. A "[1m]" suffix asks for the 1M-token
// window; the Claude 5 models have it (Claude Code 2.1.330's
// auto-compaction starts near 1,000,000 tokens); other Claude models have
// 200,000. A client that reports the window itself (Codex) is believed
// over this.
func ModelWindow(model string) int {
	m := strings.ToLower(model)
	switch {
	case m == "":
		return 0
	case strings.Contains(m, "[1m]"), strings.HasPrefix(m, "claude-opus-5"), strings.HasPrefix(m, "claude-sonnet-5"):
		return 1_000_000
	case strings.HasPrefix(m, "claude-"):
		return 200_000
	}
	return 0
}
