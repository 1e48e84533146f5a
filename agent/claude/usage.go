package claude

import (
	"context"
	"io"

	"github.com/session-hooks/session-hooks/transcript"

	"github.com/tidwall/gjson"
)

// ContextUsage reads the latest assistant usage from the end of a
// transcript. Claude Code writes one line per content block, each repeating
// the whole message's usage, so the newest line is the message's total;
// summing lines would count a message several times.
func ContextUsage(ctx context.Context, path string, opt transcript.Options) (transcript.Usage, error) {
	f, size, err := transcript.Open(path)
	if err != nil {
		return transcript.Usage{}, err
	}
	defer f.Close()
	return usageAt(ctx, newTailReader(f, size, opt.Budget, opt.MaxLine))
}

func usageAt(ctx context.Context, tr *tailReader) (transcript.Usage, error) {
	first := true
	for ctx.Err() == nil {
		line, oversized, err := tr.Next()
		if err == io.EOF {
			return transcript.Usage{}, nil
		} else if err != nil {
			return transcript.Usage{}, err
		} else if oversized || !wholeObject(line, first) {
			first = false
			continue
		}
		first = false
		if u, done := usageOf(line); done {
			return u, nil
		}
	}
	return transcript.Usage{}, ctx.Err()
}

// usageOf reads one line: a main-chain reply with usage ends the search,
// and so does a compaction boundary: what came before no longer counts,
// and the size after it is unknown until the next reply (the boundary's
// own estimate is not what the next request will hold).
func usageOf(line []byte) (transcript.Usage, bool) {
	entry := entryOf(parse(line))
	switch entry.typ {
	case "assistant":
		if entry.sidechain {
			return transcript.Usage{}, false
		}
		// No usage, or counts no model reports: an earlier reply may say.
		return usageIn(entry.message)
	case "system":
		if entry.subtype == "compact_boundary" {
			return transcript.Usage{}, true
		}
	}
	return transcript.Usage{}, false
}

// MaxTokens bounds a token count taken as true: no model's window comes
// near it, and a count past it (1e400, say) is not a count.
const MaxTokens = 1_000_000_000

// TokenCount is v as a token count: absent is 0; a whole number from 0 to
// MaxTokens is itself; anything else is not a count.
func TokenCount(v gjson.Result) (int, bool) {
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return 0, true
	case v.Type == gjson.Number && v.Num >= 0 && v.Num <= MaxTokens && v.Num == float64(int64(v.Num)):
		return int(v.Num), true
	}
	return 0, false
}

// linesFromEnd calls fn with each line of the transcript at path, newest
// first, within opt's budget, oversized lines skipped, until fn says stop,
// the lines run out or ctx ends (its error is returned).
func linesFromEnd(ctx context.Context, path string, opt transcript.Options, fn func(line []byte) bool) error {
	f, size, err := transcript.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := newTailReader(f, size, opt.Budget, opt.MaxLine)
	for ctx.Err() == nil {
		line, oversized, err := tr.Next()
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		} else if !oversized && !fn(line) {
			return nil
		}
	}
	return ctx.Err()
}
