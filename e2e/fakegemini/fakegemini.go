// Package fakegemini is a scripted stand-in for the Gemini API, so that the
// real Gemini CLI runs offline against loopback. It answers
// :streamGenerateContent (server-sent events) and :generateContent, and
// records every request body: those bodies are exactly what reached the
// model.
package fakegemini

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Server serves the scripted texts in order to the main (streamed)
// requests; every other request gets Other.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	// Other answers the non-streamed requests (routing, summaries).
	Other string
}

// Reply is one scripted answer with the prompt size it reports.
type Reply struct {
	Text        string
	InputTokens int
}

// Request is one recorded request.
type Request struct {
	Path string
	Body []byte
}

// New starts a server with the scripted replies.
func New(replies ...Reply) *Server {
	s := &Server{replies: replies, Other: `{"complexity_reasoning": "simple", "complexity_score": 10}`}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Requests are the requests so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Body: body})
	stream := strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
	reply := Reply{Text: s.Other}
	if stream {
		reply = Reply{Text: "Done."}
		if len(s.replies) > 0 {
			reply, s.replies = s.replies[0], s.replies[1:]
		}
	}
	s.mu.Unlock()
	in := reply.InputTokens
	if in == 0 {
		in = 100
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": reply.Text}}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": 5, "totalTokenCount": in + 5},
		"modelVersion":  "gemini-2.5-pro",
	}
	b, _ := json.Marshal(resp)
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
