// Package transcript reads what a coding agent was doing from a Claude Code
// session transcript (JSONL, one entry per line, appended as the session
// goes). It reads from the end of the file within a byte budget, so its time
// and memory do not grow with the transcript, and it accesses fields with
// gjson instead of unmarshalling whole entries.
//
// Only the main chain counts as the agent's: entries of subagents
// (isSidechain) never stand as its request, its text or its plan; their
// successful writes do count as files written. A subagent's own transcript,
// where every entry is a sidechain one, is read as a main chain.
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
	"unsafe"

	"github.com/session-hooks/session-hooks/safefile"

	"github.com/session-hooks/session-hooks/jsondepth"

	"github.com/tidwall/gjson"
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
	maxTexts     = 3
	// MaxFiles is how many files a transcript reader lists at most, the
	// newest kept: every agent's reader holds to it.
	MaxFiles = 200
	// maxPathRunes bounds a file path taken from the transcript: a path
	// thousands of characters long would push the snapshot out of the budget.
	maxPathRunes = 300
	maxFollowUps = 10
	maxTaskCalls = 10000
)

// DefaultOptions read up to 32 MiB back: a task list or a TodoWrite may
// lie far back, and a modern transcript has far more bookkeeping than
// conversation.
var DefaultOptions = Options{Budget: 32 << 20, MaxLine: 8 << 20}

// Read walks the transcript back from its end until it has found what it
// needs or spent its budget. A missing or unreadable file is an error; what
// is merely incomplete is said in Facts.Notes.
func Read(ctx context.Context, path string, opt Options) (*Facts, error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	facts, err := ReadAt(ctx, f, size, opt)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return facts, nil
}

// ReadAt is Read on a transcript's content of the given size.
func ReadAt(ctx context.Context, r io.ReaderAt, size int64, opt Options) (*Facts, error) {
	c, err := walk(ctx, r, size, opt, false)
	if err == nil && c.mainChat == 0 && c.sideChat > 0 {
		// A subagent's own transcript: its chain is the main one.
		c, err = walk(ctx, r, size, opt, true)
	}
	if err != nil {
		return nil, err
	}
	return c.finish(), nil
}

// walk reads the lines newest first into a collector.
func walk(ctx context.Context, r io.ReaderAt, size int64, opt Options, sideAsMain bool) (*collector, error) {
	tr := newTailReader(r, size, opt.Budget, opt.MaxLine)
	c := newCollector(sideAsMain)
	first := true
	for !c.done() {
		if ctx.Err() != nil {
			c.notes = append(c.notes, "transcript reading stopped at the hook's deadline")
			break
		}
		line, oversized, err := tr.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		} else if oversized || !c.wants(line) {
			continue
		}
		c.add(line, first)
		first = false
	}
	if tr.Truncated && !c.done() {
		c.notes = append(c.notes, fmt.Sprintf("only the last %d MiB of the transcript were read", opt.Budget>>20))
	}
	if tr.Oversized > 0 {
		c.notes = append(c.notes, fmt.Sprintf("%d transcript line(s) over %d MiB were skipped", tr.Oversized, opt.MaxLine>>20))
	}
	return c, nil
}

// openRegular opens path for reading only if it is a regular file, so a
// FIFO or a device named as the transcript cannot block the hook.
func openRegular(path string) (*os.File, error) {
	if path == "" {
		return nil, errors.New("no transcript path in the hook input")
	}
	return safefile.Open(path)
}

// openSized opens a transcript with openRegular and says its size.
// OpenTail opens the regular file at path (never blocking on a FIFO or
// a device a transcript path may name) at budget bytes before its end, or
// at its start: start says where, and a start past 0 means the first line
// read is a piece of one. Other agents' transcript readers start there.
func OpenTail(path string, budget int64) (f *os.File, start int64, err error) {
	f, size, err := openSized(path)
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

func openSized(path string) (*os.File, int64, error) {
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

// wholeObject accepts a line that starts and ends as a JSON object. Only
// the newest line of a transcript can be torn (Claude Code appends whole
// lines), so only it is validated in full (up to 256 KiB): validating
// every line cost more than reading it, and gjson reads the fields asked
// for without walking the rest and is safe on malformed input.
func wholeObject(line []byte, newest bool) bool {
	line = bytes.TrimSpace(line)
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return false
	}
	if jsondepth.Check(line, jsondepth.Max) != nil {
		return false // gjson would recurse once per level
	}
	return !newest || len(line) > 256<<10 || gjson.ValidBytes(line)
}

// parse reads a line without copying it: the lines come from buffers the
// tail reader never writes again, and what the collector keeps is copied
// out (excerpts, cloned ids), so a large tool result is never copied whole.
func parse(line []byte) gjson.Result {
	if len(line) == 0 {
		return gjson.Result{}
	}
	return gjson.Parse(unsafe.String(&line[0], len(line)))
}
