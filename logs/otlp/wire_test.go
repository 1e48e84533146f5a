package otlp

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/logs/events"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// anEvent is a pre-compact run with every field the record carries.
func anEvent() events.Event {
	tokens, compacted := 151234, true
	return events.Event{
		SchemaVersion: 1, Time: time.Date(2026, 11, 28, 9, 30, 0, 123456789, time.UTC), Session: "9f1c-session",
		Event: "PreCompact", Subcommand: "pre-compact", Client: "claude", Trigger: "auto", Model: "claude-opus",
		DurationMS: 12.5, Bytes: 2048, Truncated: true, Context: &tokens, Compacted: &compacted,
		Probes:     []events.Probe{{Command: "git status --short", DurationMS: 1.25, OK: true}},
		Skipped:    []string{"the diff stat: not read in time"},
		Errors:     []events.Error{{Type: "probe", Message: "git log: bad object"}},
		Compaction: &events.Compaction{Trigger: "auto", SummaryChars: 900, Lost: []string{"branch", "plan"}},
		Receipt:    &events.Receipt{Nonce: "n", Status: "delivered"},
		Injected:   "héllo", Engine: "gitdiag", Version: "1.4.0",
	}
}

func aBatch() Batch {
	observed := time.Date(2026, 11, 28, 9, 30, 1, 0, time.UTC)
	return Batch{Resource: []KeyValue{{"service.name", Str("session-hooks")}, {"service.version", Str("1.4.0")}, {"team", Str("infra")}},
		Version: "1.4.0", Records: []Record{FromEvent(anEvent(), observed)}}
}

// The protobuf body is read by OpenTelemetry's own generated types as
// the request a collector expects; LogsData has the wire format of
// ExportLogsServiceRequest.
func TestProtobufIsReadByOTLPsOwnTypes(t *testing.T) {
	var got logspb.LogsData
	if err := proto.Unmarshal(aBatch().Protobuf(), &got); err != nil {
		t.Fatal(err)
	}
	checkDecoded(t, &got)
}

// The JSON body is read by the protobuf JSON mapping OTLP/HTTP uses, into
// the same message.
func TestJSONIsReadByOTLPsOwnTypes(t *testing.T) {
	var got logspb.LogsData
	if err := protojson.Unmarshal(aBatch().JSON(), &got); err != nil {
		t.Fatal(err)
	}
	checkDecoded(t, &got)
}

func checkDecoded(t *testing.T, got *logspb.LogsData) {
	t.Helper()
	if len(got.ResourceLogs) != 1 || len(got.ResourceLogs[0].ScopeLogs) != 1 {
		t.Fatalf("want one resource and one scope, got %v", got)
	}
	rl := got.ResourceLogs[0]
	res := map[string]string{}
	for _, kv := range rl.Resource.Attributes {
		res[kv.Key] = kv.Value.GetStringValue()
	}
	if res["service.name"] != "session-hooks" || res["service.version"] != "1.4.0" || res["team"] != "infra" {
		t.Errorf("resource = %v", res)
	}
	sl := rl.ScopeLogs[0]
	if sl.Scope.Name != "session-hooks" || sl.Scope.Version != "1.4.0" || len(sl.LogRecords) != 1 {
		t.Fatalf("scope = %v, %d records", sl.Scope, len(sl.LogRecords))
	}
	r := sl.LogRecords[0]
	if r.TimeUnixNano != uint64(anEvent().Time.UnixNano()) || r.ObservedTimeUnixNano != uint64(time.Date(2026, 11, 28, 9, 30, 1, 0, time.UTC).UnixNano()) {
		t.Errorf("times = %d, %d", r.TimeUnixNano, r.ObservedTimeUnixNano)
	}
	if r.SeverityNumber != 13 || r.SeverityText != "WARN" || r.EventName != "session_hooks.pre_compact" || r.Body.GetStringValue() != "session_hooks.pre_compact" {
		t.Errorf("severity %v %q, event %q, body %v", r.SeverityNumber, r.SeverityText, r.EventName, r.Body)
	}
	str := func(k string) string { return r.Attributes[index(t, r, k)].Value.GetStringValue() }
	num := func(k string) int64 { return r.Attributes[index(t, r, k)].Value.GetIntValue() }
	for k, want := range map[string]string{"session.id": "9f1c-session", "event.name": "pre_compact", "hook_event_name": "PreCompact",
		"client": "claude", "trigger": "auto", "model": "claude-opus", "compaction.trigger": "auto", "recovery": "delivered",
		"git_engine": "gitdiag", "session_hooks.version": "1.4.0"} {
		if got := str(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	for k, want := range map[string]int64{"bytes_printed": 2048, "injected_chars": 5, "context_tokens": 151234,
		"compaction.summary_chars": 900, "compaction.lost_count": 2, "error_count": 1} {
		if got := num(k); got != want {
			t.Errorf("%s = %d, want %d", k, got, want)
		}
	}
	if d := r.Attributes[index(t, r, "duration_ms")].Value.GetDoubleValue(); d != 12.5 {
		t.Errorf("duration_ms = %v", d)
	}
	for _, k := range []string{"truncated", "compacted"} {
		if !r.Attributes[index(t, r, k)].Value.GetBoolValue() {
			t.Errorf("%s is not true", k)
		}
	}
	lost := r.Attributes[index(t, r, "compaction.lost")].Value.GetArrayValue().GetValues()
	if len(lost) != 2 || lost[0].GetStringValue() != "branch" || lost[1].GetStringValue() != "plan" {
		t.Errorf("compaction.lost = %v", lost)
	}
	if e := r.Attributes[index(t, r, "errors")].Value.GetArrayValue().GetValues(); len(e) != 1 || e[0].GetStringValue() != "probe: git log: bad object" {
		t.Errorf("errors = %v", e)
	}
	probe := r.Attributes[index(t, r, "probes")].Value.GetArrayValue().GetValues()[0].GetKvlistValue().GetValues()
	if probe[0].Value.GetStringValue() != "git status --short" || probe[1].Value.GetDoubleValue() != 1.25 || !probe[2].Value.GetBoolValue() {
		t.Errorf("probe = %v", probe)
	}
	for _, kv := range r.Attributes {
		if kv.Key == "injected" || kv.Value.GetStringValue() == "héllo" {
			t.Errorf("what the model was given left the machine: %v", kv)
		}
	}
}

func index(t *testing.T, r *logspb.LogRecord, key string) int {
	t.Helper()
	for i, kv := range r.Attributes {
		if kv.Key == key {
			return i
		}
	}
	t.Fatalf("no attribute %q in %v", key, r.Attributes)
	return 0
}

func TestARecordLeavesOutWhatTheEventDoesNotHave(t *testing.T) {
	r := FromEvent(events.Event{Time: time.Unix(1, 0), Subcommand: "init", Version: "1"}, time.Unix(2, 0))
	for _, kv := range r.Attrs {
		switch kv.Key {
		case "session.id", "model", "truncated", "compacted", "context_tokens", "compaction.lost", "recovery", "errors", "skipped", "probes":
			t.Errorf("%s present for an event without it", kv.Key)
		}
	}
	if r.Severity != 9 || r.SeverityText != "INFO" {
		t.Errorf("severity = %d %s", r.Severity, r.SeverityText)
	}
}

func TestSeverityIsErrorForARunThatFailed(t *testing.T) {
	for _, tc := range []struct {
		errs []events.Error
		want int
	}{
		{nil, 9},
		{[]events.Error{{Type: "probe"}, {Type: "log"}}, 13},
		{[]events.Error{{Type: "probe"}, {Type: "deadline"}}, 17},
		{[]events.Error{{Type: "panic"}}, 17},
	} {
		if got, _ := severity(tc.errs); got != tc.want {
			t.Errorf("severity(%v) = %d, want %d", tc.errs, got, tc.want)
		}
	}
}

// Zero values are written (a false bool, a zero int say which of
// AnyValue's fields is set), and negative numbers survive.
func TestZeroAndNegativeValuesSurvive(t *testing.T) {
	b := Batch{Records: []Record{{Name: "x", Attrs: []KeyValue{{"f", Bool(false)}, {"z", Int(0)}, {"n", Int(-3)}, {"d", Double(0)}, {"e", Str("")}}}}}
	for name, decode := range map[string]func([]byte, proto.Message) error{
		"protobuf": func(b []byte, m proto.Message) error { return proto.Unmarshal(b, m) },
		"json":     func(b []byte, m proto.Message) error { return protojson.Unmarshal(b, m) },
	} {
		body := b.Protobuf()
		if name == "json" {
			body = b.JSON()
		}
		var got logspb.LogsData
		if err := decode(body, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		attrs := got.ResourceLogs[0].ScopeLogs[0].LogRecords[0].Attributes
		if len(attrs) != 5 {
			t.Fatalf("%s: %d attributes", name, len(attrs))
		}
		if _, ok := attrs[0].Value.Value.(*commonBool); !ok {
			t.Errorf("%s: false is not a bool value: %v", name, attrs[0].Value)
		}
		if _, ok := attrs[1].Value.Value.(*commonInt); !ok {
			t.Errorf("%s: 0 is not an int value: %v", name, attrs[1].Value)
		}
		if attrs[2].Value.GetIntValue() != -3 {
			t.Errorf("%s: -3 came back as %v", name, attrs[2].Value)
		}
		if _, ok := attrs[3].Value.Value.(*commonDouble); !ok {
			t.Errorf("%s: 0.0 is not a double value: %v", name, attrs[3].Value)
		}
	}
}

type (
	commonBool   = commonpb.AnyValue_BoolValue
	commonInt    = commonpb.AnyValue_IntValue
	commonDouble = commonpb.AnyValue_DoubleValue
)

func TestJSONHasNoNumberItCannotWrite(t *testing.T) {
	b := Batch{Records: []Record{{Name: "x", Attrs: []KeyValue{{"d", Double(math.Inf(1))}, {"n", Double(math.NaN())}}}}}
	if !json.Valid(b.JSON()) {
		t.Fatalf("invalid JSON: %s", b.JSON())
	}
}
