package protocol

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/session-hooks/session-hooks/internal/jsondepth"

	"github.com/tidwall/gjson"
)

// Input is the JSON Claude Code writes on a hook's stdin. Only the fields
// the hooks use are read; unknown ones are ignored, as new versions add some.
type Input struct {
	SessionID      string
	TranscriptPath string
	Cwd            string
	Event          string // hook_event_name
	Source         string // SessionStart: startup, resume, clear, compact, fork
	Trigger        string // PreCompact, PostCompact: manual, auto
	Reason         string // SessionEnd
	Model          string
	FromModel      string // PostModelSwitch: the model before (Model is the one after)
	StopHookActive bool   // Stop: a stop hook already blocked once in this turn
	// Stop: background tasks and session crons that will wake the session
	// again (2.1.330 passes both lists).
	BackgroundTasks, SessionCrons int
	ToolName                      string // PostToolUse
	// Prompt is what the user typed, given to a prompt hook
	// (UserPromptSubmit; Gemini CLI's BeforeAgent, Copilot CLI's
	// userPromptSubmitted).
	Prompt string
	// ToolNames are the tools of a PostToolBatch's calls, in order.
	ToolNames []string
	// CompactSummary is PostCompact's summary of the compacted
	// conversation; it may be empty.
	CompactSummary string
	// Resume and fork: what Claude Code says of the session it continues.
	SecondsSinceLastResponse *int
	ContextTokens            *int
	PromptCacheExpired       *bool
}

// maxInput bounds what is read from stdin: real payloads are a few hundred
// bytes, and a hook must not be made to hold an arbitrary stream.
const maxInput = 16 << 20

// IsTerminal says whether stdin is a terminal (or another character
// device, /dev/null say): a person ran the command, not Claude Code, which
// always pipes a payload.
func IsTerminal(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// ReadPayload reads stdin unless it is a terminal, waiting at most wait
// for the payload: nil with a note when none can be used. A payload that
// is whole (one complete JSON value) is used at once, even when stdin
// stays open after it. Empty input is no input, as in the Node script;
// each agent parses it (ParseInput for Claude Code's shape).
func ReadPayload(stdin io.Reader, wait time.Duration) ([]byte, []string) {
	if IsTerminal(stdin) {
		return nil, nil
	}
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := readPayload(io.LimitReader(stdin, maxInput+1))
		ch <- result{b, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, []string{"could not read the hook input on stdin (" + r.err.Error() + "); continuing without it"}
		}
		if len(r.b) > maxInput {
			return nil, []string{fmt.Sprintf("the hook input on stdin is over %d MiB; ignored", maxInput>>20)}
		}
		return r.b, nil
	case <-time.After(wait):
		return nil, []string{fmt.Sprintf("no hook input arrived on stdin within %s; continuing without it", wait.Round(time.Millisecond))}
	}
}

// readPayload reads until the end of r, or until what was read is one
// whole JSON object: Claude Code writes the payload at once, and a stdin
// left open after it must not cost the hook its input.
func readPayload(r io.Reader) ([]byte, error) {
	var b []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		b = append(b, buf[:n]...)
		if n > 0 && oneObject(b) {
			return b, nil
		}
		if err == io.EOF {
			return b, nil
		} else if err != nil {
			return b, err
		}
	}
}

// oneObject says whether b holds one complete JSON object (and only
// blanks after it).
func oneObject(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) > 1 && t[0] == '{' && t[len(t)-1] == '}' &&
		jsondepth.Check(t, jsondepth.Max) == nil && gjson.ValidBytes(t)
}

// ParseInput decodes a payload. A field of the wrong type is ignored with a
// note rather than failing the whole input.
func ParseInput(b []byte) (Input, []string) {
	if len(bytes.TrimSpace(b)) == 0 {
		return Input{}, nil
	}
	if err := jsondepth.Check(b, jsondepth.Max); err != nil {
		return Input{}, []string{"the hook input on stdin " + err.Error() + "; continuing without it"}
	}
	if !gjson.ValidBytes(b) {
		return Input{}, []string{"the hook input on stdin is not valid JSON; continuing without it"}
	}
	root := gjson.ParseBytes(b)
	if !root.IsObject() {
		return Input{}, []string{"the hook input on stdin is not a JSON object; continuing without it"}
	}
	var notes []string
	str := func(field string) string {
		v := root.Get(field)
		switch v.Type {
		case gjson.String:
			return v.String()
		case gjson.Null:
			return ""
		}
		if v.Exists() {
			notes = append(notes, fmt.Sprintf("ignored %s in the hook input: expected a string, got %s", field, typeName(v)))
		}
		return ""
	}
	in := Input{
		SessionID:      str("session_id"),
		TranscriptPath: str("transcript_path"),
		Cwd:            str("cwd"),
		Event:          str("hook_event_name"),
		Source:         str("source"),
		Trigger:        str("trigger"),
		Reason:         str("reason"),
	}
	in.ToolName = str("tool_name")
	in.Prompt = str("prompt")
	in.CompactSummary = str("compact_summary")
	for _, c := range root.Get("tool_calls").Array() {
		in.ToolNames = append(in.ToolNames, c.Get("tool_name").String())
	}
	in.BackgroundTasks = len(root.Get("background_tasks").Array())
	in.SessionCrons = len(root.Get("session_crons").Array())
	in.SecondsSinceLastResponse = num(root, "seconds_since_last_response", &notes)
	in.ContextTokens = num(root, "context_tokens", &notes)
	if v := root.Get("prompt_cache_likely_expired"); v.IsBool() {
		b := v.Bool()
		in.PromptCacheExpired = &b
	}
	if v := root.Get("stop_hook_active"); v.Exists() {
		if v.IsBool() {
			in.StopHookActive = v.Bool()
		} else {
			notes = append(notes, "ignored stop_hook_active in the hook input: expected a boolean, got "+typeName(v))
		}
	}
	// model is a string in 2.1.330 and an object {id, display_name} in
	// some other versions.
	if m := root.Get("model"); m.IsObject() {
		in.Model = m.Get("id").String()
	} else {
		in.Model = str("model")
	}
	if to := str("to_model"); to != "" {
		in.Model, in.FromModel = to, str("from_model")
	}
	return in, notes
}

// num reads a whole, non-negative number field; absent is nil.
// maxCount bounds the numbers of the payload (seconds, tokens): past a
// billion, none is true.
const maxCount = 1_000_000_000

func num(root gjson.Result, field string, notes *[]string) *int {
	v := root.Get(field)
	switch {
	case !v.Exists() || v.Type == gjson.Null:
		return nil
	case v.Type == gjson.Number && v.Num >= 0 && v.Num == float64(int64(v.Num)) && v.Num <= maxCount:
		n := int(v.Num)
		return &n
	}
	*notes = append(*notes, fmt.Sprintf("ignored %s in the hook input: expected a whole number, got %s", field, typeName(v)))
	return nil
}

func typeName(v gjson.Result) string {
	switch {
	case v.IsArray():
		return "an array"
	case v.IsObject():
		return "an object"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "a boolean"
	}
	return "something else"
}
