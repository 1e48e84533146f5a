// Package fakeapi is a scripted stand-in for the Anthropic Messages API, so that
// the real Claude Code binary can run offline against loopback. It answers
// POST /v1/messages (streaming or not) and /v1/messages/count_tokens, and
// records every request body: those bodies are exactly what reached the model.
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Block is one content block of a scripted reply: text, or a tool call.
type Block struct {
	Text  string         // a text block when Tool is empty
	Tool  string         // tool name for a tool_use block (Bash, Write, TodoWrite…)
	Input map[string]any // tool input
}

// Reply is one scripted assistant message.
type Reply struct {
	Blocks []Block
	// InputTokens is reported as usage.input_tokens; a value near the model's
	// window (~990k) makes Claude Code auto-compact.
	InputTokens int
}

// Text is a reply made of one text block.
func Text(s string) Reply { return Reply{Blocks: []Block{{Text: s}}} }

// Tool is a reply made of one tool call.
func Tool(name string, input map[string]any) Reply {
	return Reply{Blocks: []Block{{Tool: name, Input: input}}}
}

// Request is one recorded request.
type Request struct {
	Path string
	Body []byte
	// Truth is what Server.Truth said when the request arrived: the state
	// the claims the request carries are checked against.
	Truth []byte
}

// Kind tells what a recorded or incoming request is for.
func (r Request) Kind() string {
	body := string(r.Body)
	switch {
	case strings.HasSuffix(r.Path, "/count_tokens"):
		return "count_tokens"
	case isSummaryRequest(body):
		return "summary"
	case gjson.Get(body, "tools.#").Int() > 0:
		return "main"
	default:
		return "side"
	}
}

// isSummaryRequest recognises Claude Code's compaction request by its
// instruction text, which asks for a summary of the conversation.
func isSummaryRequest(body string) bool {
	last := gjson.Get(body, "messages.@reverse.0.content").String()
	return strings.Contains(last, "summary of the conversation") ||
		strings.Contains(last, "create a detailed summary")
}

// Server is a running fake API.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	script   []Reply
	summary  string
	requests []Request
	msgID    int

	// Truth, when set, is asked at each main request what is true at that
	// moment (git's status and standing); Request.Truth keeps it.
	Truth func() []byte
}

// New starts a fake API that answers main-loop requests from script in order,
// then with "Done."; compaction requests with summary; anything else with "OK".
func New(summary string, script ...Reply) *Server {
	s := &Server{script: script, summary: summary}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Push appends replies to the script (for the next session of a test).
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Path: r.URL.Path, Body: body}
	if s.Truth != nil && req.Kind() == "main" {
		req.Truth = s.Truth()
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	if req.Kind() == "count_tokens" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"input_tokens": 1000}`)
		return
	}
	reply := s.next(req.Kind())
	model := gjson.GetBytes(body, "model").String()
	if gjson.GetBytes(body, "stream").Bool() {
		s.stream(w, model, reply)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.message(model, reply))
}

func (s *Server) next(kind string) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case "summary":
		return Text(s.summary)
	case "main":
		if len(s.script) == 0 {
			return Text("Done.")
		}
		r := s.script[0]
		s.script = s.script[1:]
		return r
	default:
		return Text("OK")
	}
}

func (s *Server) newID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgID++
	return fmt.Sprintf("msg_fake_%04d", s.msgID)
}

func (r Reply) stopReason() string {
	for _, b := range r.Blocks {
		if b.Tool != "" {
			return "tool_use"
		}
	}
	return "end_turn"
}

func (r Reply) usage() map[string]any {
	in := r.InputTokens
	if in == 0 {
		in = 1000
	}
	return map[string]any{"input_tokens": in, "output_tokens": 20,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

func (s *Server) content(r Reply) []map[string]any {
	var out []map[string]any
	for i, b := range r.Blocks {
		if b.Tool == "" {
			out = append(out, map[string]any{"type": "text", "text": b.Text})
			continue
		}
		input := b.Input
		if input == nil {
			input = map[string]any{}
		}
		out = append(out, map[string]any{"type": "tool_use",
			"id": fmt.Sprintf("toolu_fake_%d_%d", s.msgID, i), "name": b.Tool, "input": input})
	}
	return out
}

func (s *Server) message(model string, r Reply) map[string]any {
	id := s.newID()
	return map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
		"content": s.content(r), "stop_reason": r.stopReason(), "stop_sequence": nil,
		"usage": r.usage()}
}

// stream writes the reply as the server-sent events Claude Code expects.
func (s *Server) stream(w http.ResponseWriter, model string, r Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	msg := s.message(model, r)
	content := msg["content"].([]map[string]any)
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("message_start", map[string]any{"message": start})
	for i, c := range content {
		switch c["type"] {
		case "text":
			send("content_block_start", map[string]any{"index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"index": i,
				"delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		default:
			input, _ := json.Marshal(c["input"])
			send("content_block_start", map[string]any{"index": i,
				"content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			send("content_block_delta", map[string]any{"index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		send("content_block_stop", map[string]any{"index": i})
	}
	send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": msg["stop_reason"], "stop_sequence": nil},
		"usage": msg["usage"]})
	send("message_stop", map[string]any{})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
