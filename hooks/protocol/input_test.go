package protocol

import (
	"bytes"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/internal/testenv"

	"github.com/tidwall/gjson"
)

func TestReadPayloadDoesNotWaitForAStdinThatStaysOpen(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	start := time.Now()
	b, notes := ReadPayload(r, 100*time.Millisecond)
	in, _ := ParseInput(b)
	if b != nil || in.SessionID != "" || len(notes) != 1 || !strings.Contains(notes[0], "no hook input arrived on stdin within 100ms") {
		t.Errorf("got %+v %q", in, notes)
	}
	if took := time.Since(start); took > testenv.Scaled(time.Second) {
		t.Errorf("waited %s", took)
	}
}

func TestParseInputReadsRecordedPayloadFields(t *testing.T) {
	tests := []struct {
		name, payload string
		want          Input
	}{
		{"compact source with model", `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SessionStart","source":"compact","model":"claude-opus-5-5","prompt_id":"x"}`,
			Input{SessionID: "s", TranscriptPath: "/t.jsonl", Cwd: "/p", Event: "SessionStart", Source: "compact", Model: "claude-opus-5-5"}},
		{"model as an object", `{"model":{"id":"claude-x","display_name":"X"}}`, Input{Model: "claude-x"}},
		{"null custom instructions and trigger", `{"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":null}`, Input{Event: "PreCompact", Trigger: "auto"}},
		{"reason", `{"reason":"clear"}`, Input{Reason: "clear"}},
		{"stop with background work", `{"hook_event_name":"Stop","stop_hook_active":false,"background_tasks":[{"id":"b1"}],"session_crons":[{},{}]}`,
			Input{Event: "Stop", BackgroundTasks: 1, SessionCrons: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes := ParseInput([]byte(tt.payload))
			if !reflect.DeepEqual(got, tt.want) || len(notes) != 0 {
				t.Errorf("got %+v %q", got, notes)
			}
		})
	}
}

// FuzzParseInput: any stdin gives an input and notes, never a panic; a
// session id that is a string survives as is.
func FuzzParseInput(f *testing.F) {
	for _, p := range []string{"", "{", "[]", "null", `{"session_id":"s","cwd":"/p","model":{"id":"m"}}`,
		`{"session_id":7,"cwd":["x"],"source":{"a":1},"transcript_path":null}`} {
		f.Add([]byte(p))
	}
	if b, err := os.ReadFile("../../testdata/claude-2.1.330/payloads/07-PreCompact.json"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, notes := ParseInput(b)
		if len(notes) > 10 {
			t.Fatalf("%d notes", len(notes))
		}
		if gjson.ValidBytes(b) {
			if v := gjson.GetBytes(b, "session_id"); v.Type == gjson.String && v.String() != in.SessionID {
				t.Fatalf("session id %q read as %q", v.String(), in.SessionID)
			}
		}
	})
}

// A payload that is whole is used at once, even if stdin stays open.
func TestReadPayloadUsesAWholePayloadOnAStdinLeftOpen(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go func() {
		w.Write([]byte(`{"session_id":"s1",`))
		time.Sleep(20 * time.Millisecond)
		w.Write([]byte(`"cwd":"/p"}` + "\n"))
	}()
	start := time.Now()
	b, notes := ReadPayload(r, 5*time.Second)
	in, more := ParseInput(b)
	if in.SessionID != "s1" || in.Cwd != "/p" || len(notes)+len(more) != 0 {
		t.Errorf("got %+v %q", in, notes)
	}
	if took := time.Since(start); took > testenv.Scaled(2*time.Second) {
		t.Errorf("waited %s for a stdin that stayed open", took)
	}
}

// A payload of up to 16 MiB is read; one byte more is ignored, with a note.
func TestAPayloadOverTheBoundIsIgnoredWithANote(t *testing.T) {
	for size, read := range map[int]bool{maxInput: true, maxInput + 1: false} {
		body := []byte(`{"session_id":"s","pad":"` + strings.Repeat("x", size-len(`{"session_id":"s","pad":""}`)) + `"}`)
		b, notes := ReadPayload(bytes.NewReader(body), 5*time.Second)
		if got := b != nil; got != read || (read && len(b) != size) || read == (len(notes) == 1) {
			t.Errorf("%d bytes: read %v (%d), notes %q", size, got, len(b), notes)
		}
	}
}
