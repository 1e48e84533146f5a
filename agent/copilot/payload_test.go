package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every recorded payload reads: the session, the folder, and a
// transcript path (given by the payload, else the session's events).
func TestTheRecordedPayloadsRead(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(fixtures, "payloads", "*.json"))
	if len(names) < 10 {
		t.Fatalf("%d payloads recorded", len(names))
	}
	for _, name := range names {
		b, _ := os.ReadFile(name)
		p, notes := ParsePayload(b, "/home/u/.copilot")
		if p.SessionID == "" || !strings.HasSuffix(p.Cwd, "/project") || len(notes) > 0 {
			t.Errorf("%s: %+v %q", filepath.Base(name), p, notes)
		}
		if !strings.HasSuffix(p.TranscriptPath, "/"+p.SessionID+"/events.jsonl") {
			t.Errorf("%s: transcript %q", filepath.Base(name), p.TranscriptPath)
		}
	}
}

func TestPayloadFields(t *testing.T) {
	read := func(name string) Payload {
		b, err := os.ReadFile(filepath.Join(fixtures, "payloads", name))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := ParsePayload(b, "/home/u/.copilot")
		return p
	}
	if p := read("sessionStart-0.json"); p.Source != "new" || p.TranscriptPath != "/home/u/.copilot/session-state/"+p.SessionID+"/events.jsonl" {
		t.Errorf("sessionStart: %+v", p)
	}
	if p := read("sessionStart-1.json"); p.Source != "resume" {
		t.Errorf("the resumed start: %+v", p)
	}
	if p := read("preCompact-0.json"); p.Trigger != "manual" || !strings.HasPrefix(p.TranscriptPath, "/tmp/recordcopilot-") {
		t.Errorf("preCompact keeps its own transcript path: %+v", p)
	}
	if p := read("postToolUse-0.json"); p.ToolName == "" {
		t.Errorf("postToolUse names no tool: %+v", p)
	}
	if p := read("sessionEnd-0.json"); p.Reason != "complete" {
		t.Errorf("sessionEnd: %+v", p)
	}
	p, _ := ParsePayload([]byte(`{"sessionId":"s","stopHookActive":true}`), "/h")
	q, _ := ParsePayload([]byte(`{"sessionId":"s","stop_hook_active":true}`), "/h")
	r, _ := ParsePayload([]byte(`{"sessionId":"s","stop_hook_active":false}`), "/h")
	if !p.StopHookActive || !q.StopHookActive || r.StopHookActive {
		t.Errorf("stop hook active: %v %v %v", p.StopHookActive, q.StopHookActive, r.StopHookActive)
	}
}

func TestBadPayloadsSaySoAndGiveNothing(t *testing.T) {
	for in, note := range map[string]string{
		"":                         "",
		"   \n":                    "",
		"[1]":                      "not a JSON object",
		`{"sessionId":`:            "not a JSON object",
		strings.Repeat("[", 10000): "nest",
	} {
		p, notes := ParsePayload([]byte(in), "/h")
		if p != (Payload{}) || (note == "") != (len(notes) == 0) || (note != "" && !strings.Contains(notes[0], note)) {
			t.Errorf("ParsePayload(%.20q) = %+v, %q; want nothing and a note with %q", in, p, notes, note)
		}
	}
	p, notes := ParsePayload([]byte(`{"sessionId":5,"cwd":"/p","source":null}`), "/h")
	if p.SessionID != "" || p.Cwd != "/p" || p.TranscriptPath != "" || len(notes) != 1 || !strings.Contains(notes[0], "sessionId") {
		t.Errorf("a number for the session: %+v %q", p, notes)
	}
}

// A session id names a folder under Copilot CLI's own: one that could
// climb out of it, or is not an id at all, names nothing.
func TestEventsPathOnlyForASessionIDUnderAnAbsoluteHome(t *testing.T) {
	for _, tc := range []struct{ home, id, want string }{
		{"/h/.copilot", "269f0974-5c2e-4302-9ffa-538b38611a4f", "/h/.copilot/session-state/269f0974-5c2e-4302-9ffa-538b38611a4f/events.jsonl"},
		{"/h/.copilot", "a_b", "/h/.copilot/session-state/a_b/events.jsonl"},
		{"/h/.copilot", "../../etc", ""},
		{"/h/.copilot", "a/b", ""},
		{"/h/.copilot", "", ""},
		{"/h/.copilot", "-x", ""},
		{"/h/.copilot", strings.Repeat("a", 129), ""},
		{"relative", "abc", ""},
		{"", "abc", ""},
	} {
		if got := EventsPath(tc.home, tc.id); got != filepath.FromSlash(tc.want) {
			t.Errorf("EventsPath(%q, %q) = %q, want %q", tc.home, tc.id, got, tc.want)
		}
	}
}

func TestHomeIsCopilotHomeElseTheUsersDotCopilot(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"COPILOT_HOME": "/c", "HOME": "/h"}, "/c"},
		{map[string]string{"COPILOT_HOME": "rel", "HOME": "/h"}, "/h/.copilot"},
		{map[string]string{"USERPROFILE": "/w"}, "/w/.copilot"},
		{map[string]string{"HOME": "rel"}, ""},
		{map[string]string{}, ""},
	} {
		if got := Home(env(tc.env)); got != filepath.FromSlash(tc.want) {
			t.Errorf("Home(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestReplyOnlyWhereTheEventReadsContext(t *testing.T) {
	if got := Reply("sessionStart", `say "hi" & <go>`); got != `{"additionalContext":"say \"hi\" \u0026 \u003cgo\u003e"}` {
		t.Errorf("sessionStart: %s", got)
	}
	if got := Reply("userPromptSubmitted", "x"); got != `{"additionalContext":"x"}` {
		t.Errorf("userPromptSubmitted: %s", got)
	}
	if got := Reply("postToolUse", "x"); got != `{"additionalContext":"x"}` {
		t.Errorf("postToolUse: %s", got)
	}
	for _, e := range []string{"sessionEnd", "preCompact", "agentStop", "preToolUse", ""} {
		if got := Reply(e, "x"); got != "" {
			t.Errorf("%s: %q", e, got)
		}
	}
}
