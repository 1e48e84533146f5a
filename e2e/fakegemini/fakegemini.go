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
// requests; a compression's requests (the summary and its self-check) get
// Summary; every other request gets Other.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	// Truth, when set, is asked at each request what is true at that
	// moment (Request.Truth).
	Truth func() []byte
	// Other answers the other non-streamed requests (routing).
	Other string
	// Summary answers a compression's requests, which ask for a
	// <state_snapshot>.
	Summary string
}

// Reply is one scripted answer with the prompt size it reports: a text,
// or a function call when Call is set.
type Reply struct {
	Text        string
	Call        *Call
	InputTokens int
}

// Call is a function call the model asks for.
type Call struct {
	Name string
	Args map[string]any
}

// Request is one recorded request.
type Request struct {
	Path string
	Body []byte
	// Truth is what Server.Truth said when the request arrived.
	Truth []byte
}

// New starts a server with the scripted replies.
func New(replies ...Reply) *Server {
	s := &Server{replies: replies, Other: `{"complexity_reasoning": "simple", "complexity_score": 10}`,
		Summary: "<state_snapshot>\n<overall_goal>what the fake summariser kept</overall_goal>\n</state_snapshot>"}
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
	var truth []byte
	if s.Truth != nil {
		truth = s.Truth()
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Body: body, Truth: truth})
	stream := strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
	reply := Reply{Text: s.Other}
	if !stream && IsSummaryRequest(body) {
		reply = Reply{Text: s.Summary}
	}
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
	part := map[string]any{"text": reply.Text}
	if c := reply.Call; c != nil {
		part = map[string]any{"functionCall": map[string]any{"name": c.Name, "args": c.Args}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
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

// IsSummaryRequest says whether a request is one of a compression's: its
// last turn asks for a <state_snapshot> (the history alone may hold one
// after a compression, as the router's requests then do).
func IsSummaryRequest(body []byte) bool {
	var req struct {
		Contents []struct {
			Parts []struct{ Text string }
		}
	}
	if json.Unmarshal(body, &req) != nil || len(req.Contents) == 0 {
		return false
	}
	for _, p := range req.Contents[len(req.Contents)-1].Parts {
		if strings.Contains(p.Text, "generate the updated <state_snapshot>") || strings.Contains(p.Text, "Critically evaluate the <state_snapshot>") {
			return true
		}
	}
	return false
}
