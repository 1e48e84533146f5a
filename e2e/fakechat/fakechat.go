// Package fakechat is a scripted stand-in for the OpenAI Chat Completions
// API, so that the clients that speak it (Qwen Code, Factory Droid,
// OpenCode) run offline against loopback. It answers POST
// …/chat/completions, streamed or not, and GET …/models, and records every
// request body: those bodies are exactly what reached the model.
package fakechat

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Call is a tool call of a scripted reply.
type Call struct {
	Name      string
	Arguments string // the JSON string the API sends
}

// Reply is one scripted answer: text, tool calls, and the prompt tokens
// the usage reports (near the window, it makes a client compact).
type Reply struct {
	Text         string
	Calls        []Call
	PromptTokens int
}

// Text is a reply of text alone.
func Text(s string) Reply { return Reply{Text: s} }

// Request is one request as it arrived.
type Request struct {
	Path  string
	Body  []byte
	Truth []byte
}

// Server serves the scripted replies in order to the main requests; a
// summary (compaction) request gets Summary.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	// Truth, when set, is asked at each request what is true at that
	// moment; Requests keeps the answers.
	Truth func() []byte
	// IsSummary tells a compaction's summary request (the client's own
	// wording); Summary answers it.
	IsSummary func(body []byte) bool
	Summary   string
	// SummaryPromptTokens is the prompt the summary's usage reports: the
	// whole history it read, which a client subtracts to count what the
	// compaction saved (Qwen Code fails one that seems to save nothing).
	SummaryPromptTokens int
	// Default answers a main request once the script is spent.
	Default Reply
}

// New starts a server with the scripted replies.
func New(replies ...Reply) *Server {
	s := &Server{replies: replies, Summary: "Summary of the conversation so far.", Default: Text("Done."),
		IsSummary: func([]byte) bool { return false }}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Add scripts more replies, after those not yet given: for a script that
// names what the test made after the server started (a path).
func (s *Server) Add(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Requests are every chat request, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"fake"}]}`)
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions"):
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var truth []byte
	if s.Truth != nil {
		truth = s.Truth()
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Body: body, Truth: truth})
	n := len(s.requests)
	var reply Reply
	switch {
	case s.IsSummary(body):
		reply = Reply{Text: s.Summary, PromptTokens: s.SummaryPromptTokens}
	case len(s.replies) > 0:
		reply, s.replies = s.replies[0], s.replies[1:]
	default:
		reply = s.Default
	}
	s.mu.Unlock()
	var req struct {
		Stream bool `json:"stream"`
	}
	json.Unmarshal(body, &req)
	if req.Stream {
		writeStream(w, reply, n)
		return
	}
	writeWhole(w, reply, n)
}

func usage(reply Reply) map[string]any {
	prompt := reply.PromptTokens
	if prompt == 0 {
		prompt = 1000
	}
	return map[string]any{"prompt_tokens": prompt, "completion_tokens": 20, "total_tokens": prompt + 20}
}

func toolCalls(reply Reply, n int, streamed bool) []any {
	var calls []any
	for i, c := range reply.Calls {
		call := map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
		if streamed {
			call["index"] = i
		}
		calls = append(calls, call)
	}
	return calls
}

func finish(reply Reply) string {
	if len(reply.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// writeWhole answers as one JSON object.
func writeWhole(w http.ResponseWriter, reply Reply, n int) {
	msg := map[string]any{"role": "assistant", "content": reply.Text}
	if calls := toolCalls(reply, n, false); calls != nil {
		msg["tool_calls"] = calls
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1,
		"model": "fake-model", "choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish(reply)}},
		"usage": usage(reply)})
}

// writeStream answers as server-sent chunks, the usage in the last.
func writeStream(w http.ResponseWriter, reply Reply, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finishReason any, u map[string]any) {
		c := map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finishReason}}}
		if u != nil {
			c["usage"] = u
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	if reply.Text != "" {
		chunk(map[string]any{"content": reply.Text}, nil, nil)
	}
	if calls := toolCalls(reply, n, true); calls != nil {
		chunk(map[string]any{"tool_calls": calls}, nil, nil)
	}
	chunk(map[string]any{}, finish(reply), usage(reply))
	io.WriteString(w, "data: [DONE]\n\n")
}
