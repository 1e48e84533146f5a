package transcript

import (
	"bytes"
	"context"
	"io"

	"github.com/tidwall/gjson"
)

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

// ContextUsage reads the latest assistant usage from the end of a
// transcript. Claude Code writes one line per content block, each repeating
// the whole message's usage, so the newest line is the message's total;
// summing lines would count a message several times.
func ContextUsage(ctx context.Context, path string, opt Options) (Usage, error) {
	f, size, err := openSized(path)
	if err != nil {
		return Usage{}, err
	}
	defer f.Close()
	return usageAt(ctx, newTailReader(f, size, opt.Budget, opt.MaxLine))
}

func usageAt(ctx context.Context, tr *tailReader) (Usage, error) {
	first := true
	for ctx.Err() == nil {
		line, oversized, err := tr.Next()
		if err == io.EOF {
			return Usage{}, nil
		} else if err != nil {
			return Usage{}, err
		} else if oversized || !wholeObject(line, first) {
			first = false
			continue
		}
		first = false
		if u, done := usageOf(line); done {
			return u, nil
		}
	}
	return Usage{}, ctx.Err()
}

// usageOf reads one line: a main-chain reply with usage ends the search,
// and so does a compaction boundary: what came before no longer counts,
// and the size after it is unknown until the next reply (the boundary's
// own estimate is not what the next request will hold).
func usageOf(line []byte) (Usage, bool) {
	entry := entryOf(parse(line))
	switch entry.typ {
	case "assistant":
		if entry.sidechain {
			return Usage{}, false
		}
		// No usage, or counts no model reports: an earlier reply may say.
		return usageIn(entry.message)
	case "system":
		if entry.subtype == "compact_boundary" {
			return Usage{}, true
		}
	}
	return Usage{}, false
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

// Contains reports, for each needle, whether the last budget bytes of the
// transcript hold it (a hook's output, say, which Claude Code records in
// the transcript as it injects it).
func Contains(ctx context.Context, path string, needles []string, budget int64) ([]bool, error) {
	found := make([]bool, len(needles))
	err := linesFromEnd(ctx, path, Options{Budget: budget, MaxLine: DefaultOptions.MaxLine}, func(line []byte) bool {
		for i, n := range needles {
			found[i] = found[i] || bytes.Contains(line, []byte(n))
		}
		return true
	})
	return found, err
}

// linesFromEnd calls fn with each line of the transcript at path, newest
// first, within opt's budget, oversized lines skipped, until fn says stop,
// the lines run out or ctx ends (its error is returned).
func linesFromEnd(ctx context.Context, path string, opt Options, fn func(line []byte) bool) error {
	f, size, err := openSized(path)
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
