package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// A reply reaches stdout as the client reads it: the shared encoding
// prints a start's or a snapshot's text as text, context and held stops
// in the shared JSON shapes; a client that reads only JSON gets every
// text as context; --format json's data is printed as it is; an empty
// reply prints nothing.
func TestEachReplyIsEncodedAsTheClientReadsIt(t *testing.T) {
	shared, onlyJSON := Agent{}, Agent{Encode: ContextOnly}
	custom := Agent{Encode: func(event string, r Reply) string { return "custom:" + event + ":" + r.Text }}
	for _, tt := range []struct {
		name  string
		a     Agent
		reply Reply
		want  string
	}{
		{"text, shared", shared, Say("brief"), "brief"},
		{"context, shared", shared, AddContext("", "warn"), `{"hookSpecificOutput":{"additionalContext":"warn","hookEventName":"PostToolUse"}}`},
		{"held stop, shared", shared, Hold("commit first"), `{"decision":"block","reason":"commit first"}`},
		{"nothing, shared", shared, Reply{}, ""},
		{"text, JSON only", onlyJSON, Say("brief"), `{"hookSpecificOutput":{"additionalContext":"brief","hookEventName":"PostToolUse"}}`},
		{"held stop, JSON only", onlyJSON, Hold("why"), `{"decision":"block","reason":"why"}`},
		{"nothing, JSON only", onlyJSON, Say(""), ""},
		{"data, any client", onlyJSON, Facts(`{"schema_version":1}`), `{"schema_version":1}`},
		{"the client's own", custom, Say("x"), "custom:PostToolUse:x"},
	} {
		if got := tt.a.EncodeReply("PostToolUse", tt.reply); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if Hold("").Empty() || !(Reply{}).Empty() || Say("x").Empty() {
		t.Error("Empty")
	}
}

// The limit is the client's, else the shared default; the payload is
// read by the client's own parser, else in the shared shape.
func TestTheLimitAndTheParserAreTheClientsWhereItHasThem(t *testing.T) {
	if (Agent{}).Limit() != DefaultBudget || (Agent{Budget: 100}).Limit() != 100 {
		t.Error("Limit")
	}
	own := Agent{ParseInput: func(b []byte, getenv func(string) string) (Input, []string) {
		return Input{SessionID: "own " + getenv("X")}, nil
	}}
	if in, _ := own.Parse([]byte(`{"session_id":"s"}`), func(string) string { return "env" }); in.SessionID != "own env" {
		t.Errorf("the client's parser: %+v", in)
	}
	if in, _ := (Agent{}).Parse([]byte(`{"session_id":"s"}`), nil); in.SessionID != "s" {
		t.Errorf("the shared parser: %+v", in)
	}
}

// doctor's sample payloads are each event's shared shape: a start's first
// source, a compaction's trigger (PostCompact's summary too), an end's
// reason, a Stop a stop hook already held (so it never blocks), a tool's
// name, a batch's calls.
func TestSamplePayloadsAreEachEventsShape(t *testing.T) {
	for event, want := range map[string]string{
		SessionStart:  `"source":"startup"`,
		PreCompact:    `"trigger":"manual"`,
		PostCompact:   `"compact_summary":""`,
		SessionEnd:    `"reason":"other"`,
		Stop:          `"stop_hook_active":true`,
		PostToolUse:   `"tool_name":"startup"`,
		PostToolBatch: `"tool_calls":[{"tool_input":{},"tool_name":"Write","tool_use_id":"doctor"}]`,
	} {
		b, _ := json.Marshal(SamplePayload(event, "startup|resume", "s", "/p"))
		if !strings.Contains(string(b), want) || !strings.Contains(string(b), `"hook_event_name":"`+event+`"`) || !strings.Contains(string(b), `"cwd":"/p"`) {
			t.Errorf("%s: %s, want %s", event, b, want)
		}
	}
	if b, _ := json.Marshal(SamplePayload(PreCompact, "", "s", "/p")); strings.Contains(string(b), "compact_summary") {
		t.Errorf("PreCompact has PostCompact's summary: %s", b)
	}
	if !IsJSON(`{"a":1}`) || IsJSON("text {") || IsJSON("") {
		t.Error("IsJSON")
	}
}

// A field of the wrong type is ignored with a note, the rest read; the
// numbers are whole and within a billion.
func TestAFieldOfTheWrongTypeIsIgnoredWithANote(t *testing.T) {
	in, notes := ParseInput([]byte(`{"session_id":7,"cwd":"/p","stop_hook_active":"yes","context_tokens":-1,"seconds_since_last_response":1.5,` +
		`"prompt_cache_likely_expired":true,"source":["a"],"trigger":{"a":1},"reason":true}`))
	if in.Cwd != "/p" || in.SessionID != "" || in.StopHookActive || in.ContextTokens != nil || in.SecondsSinceLastResponse != nil ||
		in.PromptCacheExpired == nil || !*in.PromptCacheExpired {
		t.Errorf("read %+v", in)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{"session_id in the hook input: expected a string, got a number", "stop_hook_active in the hook input: expected a boolean, got something else",
		"context_tokens in the hook input: expected a whole number, got a number", "source in the hook input: expected a string, got an array",
		"trigger in the hook input: expected a string, got an object", "reason in the hook input: expected a string, got a boolean"} {
		if !strings.Contains(all, want) {
			t.Errorf("no note %q in:\n%s", want, all)
		}
	}
	if in, notes := ParseInput([]byte(`{"context_tokens":1000000000,"seconds_since_last_response":1000000001}`)); in.ContextTokens == nil ||
		*in.ContextTokens != 1_000_000_000 || in.SecondsSinceLastResponse != nil || len(notes) != 1 {
		t.Errorf("the bound: %+v %q", in, notes)
	}
	for _, bad := range []string{"[1]", "{", `"s"`} {
		if _, notes := ParseInput([]byte(bad)); len(notes) != 1 {
			t.Errorf("%q: %q", bad, notes)
		}
	}
	if in, notes := ParseInput([]byte("  ")); in.SessionID != "" || notes != nil {
		t.Error("empty input is no input")
	}
}
