// This file reads what a coding agent was doing from a Claude Code
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
package claude

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"unsafe"

	"github.com/session-hooks/session-hooks/transcript"

	"github.com/session-hooks/session-hooks/internal/jsondepth"

	"github.com/tidwall/gjson"
)

// Limits of Claude Code's collector alone.
const (
	maxTexts = 3
	// maxPathRunes bounds a file path taken from the transcript: a path
	// thousands of characters long would push the snapshot out of the budget.
	maxPathRunes = 300
	maxFollowUps = 10
	maxTaskCalls = 10000
)

// Read walks the transcript back from its end until it has found what it
// needs or spent its budget. A missing or unreadable file is an error; what
// is merely incomplete is said in Facts.Notes.
func Read(ctx context.Context, path string, opt transcript.Options) (*transcript.Facts, error) {
	f, size, err := transcript.Open(path)
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
func ReadAt(ctx context.Context, r io.ReaderAt, size int64, opt transcript.Options) (*transcript.Facts, error) {
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
func walk(ctx context.Context, r io.ReaderAt, size int64, opt transcript.Options, sideAsMain bool) (*collector, error) {
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
