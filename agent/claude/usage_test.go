package claude

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/transcript"
)

func TestContextUsage(t *testing.T) {
	reply := func(id string, in, create, read int) string {
		return `{"type":"assistant","message":{"id":"` + id + `","usage":{"input_tokens":` + strconv.Itoa(in) +
			`,"cache_creation_input_tokens":` + strconv.Itoa(create) + `,"cache_read_input_tokens":` + strconv.Itoa(read) + `,"output_tokens":9}}}` + "\n"
	}
	tests := []struct {
		name, content string
		want          transcript.Usage
	}{
		{"latest reply, all three input counts", reply("a", 10, 0, 0) + reply("b", 100, 2000, 50000), transcript.Usage{Tokens: 52100, Output: 9, Known: true}},
		{"one message over several lines counts once", reply("b", 100, 0, 900) + reply("b", 100, 0, 900), transcript.Usage{Tokens: 1000, Output: 9, Known: true}},
		{"bookkeeping after the reply", reply("a", 5, 5, 5) + `{"type":"attachment"}` + "\n" + `{"type":"user","message":{"content":"x"}}` + "\n", transcript.Usage{Tokens: 15, Output: 9, Known: true}},
		{"compacted since: unknown", reply("a", 900000, 0, 0) + `{"type":"system","subtype":"compact_boundary","compactMetadata":{"preTokens":900000}}` + "\n", transcript.Usage{}},
		{"compacted: unknown until the next reply, whatever the boundary estimates", reply("a", 900000, 0, 0) + `{"type":"system","subtype":"compact_boundary","compactMetadata":{"postTokens":12000}}` + "\n", transcript.Usage{}},
		{"a subagent's reply is not the agent's context", reply("a", 10, 0, 0) + `{"type":"assistant","isSidechain":true,"message":{"id":"s","usage":{"input_tokens":99999}}}` + "\n", transcript.Usage{Tokens: 10, Output: 9, Known: true}},
		{"no reply yet", `{"type":"user","message":{"content":"hi"}}` + "\n", transcript.Usage{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ContextUsage(context.Background(), writeTemp(t, []byte(tt.content)), transcript.DefaultOptions)
			if err != nil || got != tt.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	if _, err := ContextUsage(context.Background(), "", transcript.DefaultOptions); err == nil {
		t.Error("no transcript path must be an error")
	}
}

func TestContextUsageOfTheRecordedSession(t *testing.T) {
	got, err := ContextUsage(context.Background(), writeTemp(t, untilCompaction(t, fixture(t))), transcript.DefaultOptions)
	if err != nil || got != (transcript.Usage{Tokens: 1000, Output: 20, Known: true, Model: "claude-opus-5-5"}) {
		t.Errorf("got %+v, %v", got, err)
	}
}

func TestTokenCountsNoModelReportsAreIgnored(t *testing.T) {
	for _, u := range []string{`{"input_tokens": 1e400}`, `{"input_tokens": -900000}`, `{"input_tokens": 2e9}`, `{"input_tokens": 1.5}`, `{"input_tokens": "12"}`} {
		lines := `{"type":"assistant","message":{"model":"m","usage":{"input_tokens":1000}}}` + "\n" +
			`{"type":"assistant","message":{"model":"m","usage":` + u + `}}` + "\n"
		got, _ := ContextUsage(context.Background(), writeTemp(t, []byte(lines)), transcript.DefaultOptions)
		if !got.Known || got.Tokens != 1000 {
			t.Errorf("usage %s: got %+v, want the earlier reply's 1000 tokens", u, got)
		}
	}
}

func TestATranscriptStartingWithAByteOrderMarkKeepsItsFirstLine(t *testing.T) {
	b := []byte("\xef\xbb\xbf" + `{"type":"user","message":{"role":"user","content":"Rename the lexer"}}` + "\n")
	f, err := Read(context.Background(), writeTemp(t, b), transcript.DefaultOptions)
	if err != nil || f.LastPrompt != "Rename the lexer" {
		t.Errorf("got %q, %v", f.LastPrompt, err)
	}
}

func TestInjectedIsWhatSessionStartHooksPutInTheCurrentContext(t *testing.T) {
	hook := func(name, text string) string {
		return `{"attachment":{"type":"hook_success","hookName":"` + name + `","stdout":` + quote(text) + `},"type":"attachment"}`
	}
	lines := []string{hook("SessionStart:startup", "before the compaction"), boundary,
		hook("SessionStart:compact", "the recovery"), user("go on"), hook("PostToolUse:Bash", "not a start"),
		hook("SessionStart:resume", "Resumed: 2s ago")}
	got, err := Injected(context.Background(), writeTemp(t, []byte(strings.Join(lines, "\n")+"\n")), transcript.DefaultOptions)
	if err != nil || len(got) != 2 || got[0] != "Resumed: 2s ago" || got[1] != "the recovery" {
		t.Errorf("got %q, %v", got, err)
	}
}
