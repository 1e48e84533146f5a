package transcript

import "github.com/session-hooks/session-hooks/internal/sanitize"

// Tally is what a reader of a client's session file keeps as it reads it,
// oldest first, by the rules every such reader shares: the request that
// stands (and the one that set the work), the latest texts, the files
// written, whether the newest tool result failed, the model. A reader
// embeds one, sets what only its client records on Out, and returns
// Finish.
type Tally struct {
	Out   Facts
	Files Files

	requests  Requests
	texts     []string
	lastError *ToolError
	model     string
}

// Request records what a person typed (cleaned of the client's own
// wrapping, trimmed), at the client's time for it; an empty one, or a
// held stop's reason the client sent back as a prompt, is none.
func (t *Tally) Request(text, at string) {
	if text == "" || IsHoldReason(text) {
		return
	}
	t.requests.Add(text)
	t.Out.LastPrompt, t.Out.LastPromptAt = Request(text), sanitize.Excerpt(at, 40)
	t.Out.PreviousPrompt = t.requests.Previous()
	// A request does not close an error: only a success does.
	t.Out.ErrorBeforeRequest = t.lastError != nil
}

// Text records a text of the agent's; the three latest are kept.
func (t *Tally) Text(s string) {
	if s == "" {
		return
	}
	t.texts = append(t.texts, s)
	if len(t.texts) > 3 {
		t.texts = t.texts[1:]
	}
}

// Failed records that a tool call's result failed, with its error: it is
// the open error until a success.
func (t *Tally) Failed(call ToolCall, err string) {
	t.lastError = &ToolError{ToolCall: call, Error: sanitize.Excerpt(err, ErrorRunes)}
	t.Out.ErrorBeforeRequest = false
}

// Succeeded records that a tool call's result succeeded.
func (t *Tally) Succeeded() { t.lastError = nil }

// Model records the model a reply names ("" names none).
func (t *Tally) Model(m string) {
	if m != "" {
		t.model = sanitize.Excerpt(m, 80)
	}
}

// Finish is the facts read.
func (t *Tally) Finish() *Facts {
	out := t.Out
	out.FilesTouched = t.Files.List()
	out.OpenError = t.lastError
	if out.OpenError == nil {
		out.ErrorBeforeRequest = false
	}
	out.Usage.Model = t.model
	out.Texts = append(out.Texts, Excerpts(t.texts)...)
	return &out
}
