// Package fakeresponses is a scripted stand-in for the OpenAI Responses API,
// so that the real Codex CLI runs offline against loopback. It answers
// POST /v1/responses as server-sent events and GET /v1/models, and records
// every request body: those bodies are exactly what reached the model.
package fakeresponses

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Item is one output item of a scripted reply: a message, or a call of
// one of the tools Codex offers (shell commands, apply_patch…).
type Item struct {
	Text      string // an assistant message when Tool is empty
	Tool      string // a function call's name
	Arguments string // its arguments, as the JSON string the API sends
	Custom    bool   // a custom tool call (apply_patch's freeform input)
}

// Reply is one scripted response.
type Reply struct {
	Items []Item
	// InputTokens is reported as usage.input_tokens: over Codex's
	// model_auto_compact_token_limit, it makes Codex compact.
	InputTokens int
}

// Text is a reply made of one message.
func Text(s string) Reply { return Reply{Items: []Item{{Text: s}}} }

// Server serves the scripted replies in order to the main requests; a
// summary (compaction) request gets Summary.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests [][]byte
	truths   [][]byte
	// Truth, when set, is asked at each request what is true at that
	// moment; Truths keeps the answers, one per request.
	Truth func() []byte
	// Summary answers a compaction's summary request.
	Summary string
	// Default answers a main request once the script is spent.
	Default Reply
}

// New starts a server with the scripted replies.
func New(replies ...Reply) *Server {
	s := &Server{replies: replies, Summary: "Summary of the conversation so far.", Default: Text("Done.")}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Truths are what Truth said at each request, in the order of Requests.
func (s *Server) Truths() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.truths...)
}

// Requests are the bodies of every POST /v1/responses, in order.
func (s *Server) Requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.requests...)
}

// IsSummary says whether a request body asks for a compaction summary.
func IsSummary(body []byte) bool {
	return strings.Contains(string(body), "CONTEXT CHECKPOINT COMPACTION")
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"models":[]}`)
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses"):
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var truth []byte
	if s.Truth != nil {
		truth = s.Truth()
	}
	s.mu.Lock()
	s.requests = append(s.requests, body)
	s.truths = append(s.truths, truth)
	var reply Reply
	switch {
	case IsSummary(body):
		reply = Text(s.Summary)
	case len(s.replies) > 0:
		reply, s.replies = s.replies[0], s.replies[1:]
	default:
		reply = s.Default
	}
	s.mu.Unlock()
	writeSSE(w, reply, len(s.Requests()))
}

// writeSSE streams reply as the Responses API does.
func writeSSE(w http.ResponseWriter, reply Reply, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_%d", n)
	event := func(kind string, data map[string]any) {
		data["type"] = kind
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", kind, b)
	}
	event("response.created", map[string]any{"response": map[string]any{"id": id}})
	var output []any
	for i, it := range reply.Items {
		var item map[string]any
		switch {
		case it.Tool == "":
			item = map[string]any{"type": "message", "role": "assistant", "id": fmt.Sprintf("msg_%d_%d", n, i),
				"content": []any{map[string]any{"type": "output_text", "text": it.Text, "annotations": []any{}}}}
			event("response.output_item.added", map[string]any{"output_index": i, "item": item})
			event("response.output_text.delta", map[string]any{"output_index": i, "item_id": item["id"], "delta": it.Text})
		case it.Custom:
			item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d_%d", n, i), "call_id": fmt.Sprintf("call_%d_%d", n, i),
				"name": it.Tool, "input": it.Arguments, "status": "completed"}
			event("response.output_item.added", map[string]any{"output_index": i, "item": item})
		default:
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d_%d", n, i), "call_id": fmt.Sprintf("call_%d_%d", n, i),
				"name": it.Tool, "arguments": it.Arguments, "status": "completed"}
			event("response.output_item.added", map[string]any{"output_index": i, "item": item})
		}
		event("response.output_item.done", map[string]any{"output_index": i, "item": item})
		output = append(output, item)
	}
	in := reply.InputTokens
	if in == 0 {
		in = 1000
	}
	event("response.completed", map[string]any{"response": map[string]any{"id": id, "output": output,
		"usage": map[string]any{"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 20, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": in + 20}}})
}
