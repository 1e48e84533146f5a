package otlp

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/logs/events"
)

// Value is an OTLP AnyValue of the kinds an event needs.
type Value struct {
	kind  kind
	s     string
	i     int64
	f     float64
	b     bool
	array []Value
	kvs   []KeyValue
}

type kind uint8

const (
	kindString kind = iota
	kindBool
	kindInt
	kindDouble
	kindArray
	kindKVList
)

// KeyValue is one attribute.
type KeyValue struct {
	Key   string
	Value Value
}

// Str, Bool, Int, Double, Strs and KVList make Values.
func Str(s string) Value         { return Value{kind: kindString, s: s} }
func Bool(b bool) Value          { return Value{kind: kindBool, b: b} }
func Int(i int64) Value          { return Value{kind: kindInt, i: i} }
func Double(f float64) Value     { return Value{kind: kindDouble, f: f} }
func KVList(kv []KeyValue) Value { return Value{kind: kindKVList, kvs: kv} }
func Strs(ss []string) Value {
	v := Value{kind: kindArray, array: make([]Value, len(ss))}
	for i, s := range ss {
		v.array[i] = Str(s)
	}
	return v
}

// Severities, as OTLP numbers them.
const (
	severityInfo  = 9
	severityWarn  = 13
	severityError = 17
)

// Record is one log record: one event.
type Record struct {
	Time, Observed time.Time
	Severity       int
	SeverityText   string
	Name           string // the event's name, also its body
	Attrs          []KeyValue
}

// Prefix names our events, as claude_code. names Claude Code's.
const Prefix = "session_hooks."

// FromEvent is the record of one event. It holds what the event log
// holds, in the log's own words (the log's lines went through the output
// policy when they were written), less what the model was given: that
// is counted, not sent.
func FromEvent(e events.Event, observed time.Time) Record {
	name := strings.ReplaceAll(e.Subcommand, "-", "_")
	r := Record{Time: e.Time, Observed: observed, Name: Prefix + name}
	r.Severity, r.SeverityText = severity(e.Errors)
	a := attrs{}
	a.str("session.id", e.Session)
	a.str("event.name", name)
	a.str("hook_event_name", e.Event)
	a.str("client", e.Client)
	a.str("source", e.Source)
	a.str("trigger", e.Trigger)
	a.str("reason", e.Reason)
	a.str("model", e.Model)
	a.add("duration_ms", Double(e.DurationMS))
	a.add("bytes_printed", Int(int64(e.Bytes)))
	a.add("injected_chars", Int(int64(utf8.RuneCountInString(e.Injected))))
	if e.Truncated {
		a.add("truncated", Bool(true))
	}
	a.str("decision", e.Decision)
	if e.Context != nil {
		a.add("context_tokens", Int(int64(*e.Context)))
	}
	if e.Compacted != nil {
		a.add("compacted", Bool(*e.Compacted))
	}
	if c := e.Compaction; c != nil {
		a.str("compaction.trigger", c.Trigger)
		a.add("compaction.summary_chars", Int(int64(c.SummaryChars)))
		a.add("compaction.lost_count", Int(int64(len(c.Lost))))
		a.add("compaction.lost", Strs(c.Lost))
	}
	if e.Receipt != nil {
		a.str("recovery", e.Receipt.Status)
	}
	if len(e.Skipped) > 0 {
		a.add("skipped", Strs(e.Skipped))
	}
	if len(e.Errors) > 0 {
		a.add("error_count", Int(int64(len(e.Errors))))
		a.add("errors", Strs(errorLines(e.Errors)))
	}
	if len(e.Probes) > 0 {
		a.add("probes", probes(e.Probes))
	}
	a.str("git_engine", e.Engine)
	a.str("session_hooks.version", e.Version)
	r.Attrs = a
	return r
}

// attrs is a record's attributes, in the order they are added, an empty
// string left out.
type attrs []KeyValue

func (a *attrs) add(k string, v Value) { *a = append(*a, KeyValue{k, v}) }

func (a *attrs) str(k, v string) {
	if v != "" {
		a.add(k, Str(v))
	}
}

// severity is WARN for a run that met an error it worked around (a probe,
// a log), ERROR for one that failed (a panic, a missed deadline), INFO
// otherwise.
func severity(errs []events.Error) (int, string) {
	n, text := severityInfo, "INFO"
	for _, e := range errs {
		if e.Type == "panic" || e.Type == "deadline" {
			return severityError, "ERROR"
		}
		n, text = severityWarn, "WARN"
	}
	return n, text
}

func errorLines(errs []events.Error) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Type + ": " + e.Message
	}
	return out
}

func probes(ps []events.Probe) Value {
	v := Value{kind: kindArray, array: make([]Value, len(ps))}
	for i, p := range ps {
		v.array[i] = KVList([]KeyValue{{"command", Str(p.Command)}, {"duration_ms", Double(p.DurationMS)}, {"ok", Bool(p.OK)}})
	}
	return v
}
