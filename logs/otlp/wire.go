package otlp

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// The request is opentelemetry.proto.collector.logs.v1's
// ExportLogsServiceRequest, written here by hand: its wire format is a
// dozen fields (LogsData has the same), and the generated types with the
// protobuf runtime would cost every hook 8 MB of binary and most of a
// millisecond of start to send what a few varints say.

// Field numbers, from opentelemetry/proto/logs/v1/logs.proto and
// common/v1/common.proto.
const (
	requestResourceLogs = 1 // ExportLogsServiceRequest.resource_logs

	resourceLogsResource  = 1
	resourceLogsScopeLogs = 2
	resourceAttributes    = 1

	scopeLogsScope   = 1
	scopeLogsRecords = 2
	scopeName        = 1
	scopeVersion     = 2

	recordTime         = 1 // fixed64
	recordSeverity     = 2
	recordSeverityText = 3
	recordBody         = 5
	recordAttributes   = 6
	recordObserved     = 11 // fixed64
	recordEventName    = 12

	kvKey   = 1
	kvValue = 2

	anyString = 1
	anyBool   = 2
	anyInt    = 3
	anyDouble = 4
	anyArray  = 5
	anyKVList = 6

	listValues = 1 // ArrayValue.values, KeyValueList.values
)

const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
)

// Batch is one request: the records of one resource, from one scope.
type Batch struct {
	Resource []KeyValue
	Version  string // the scope's version: ours
	Records  []Record
}

// Protobuf is the batch as an OTLP/HTTP request body, binary form.
func (b Batch) Protobuf() []byte {
	var rl []byte
	var res []byte
	for _, kv := range b.Resource {
		res = appendMessage(res, resourceAttributes, appendKV(nil, kv))
	}
	rl = appendMessage(rl, resourceLogsResource, res)
	scope := appendString(appendString(nil, scopeName, ServiceName), scopeVersion, b.Version)
	sl := appendMessage(nil, scopeLogsScope, scope)
	for _, r := range b.Records {
		sl = appendMessage(sl, scopeLogsRecords, appendRecord(nil, r))
	}
	rl = appendMessage(rl, resourceLogsScopeLogs, sl)
	return appendMessage(nil, requestResourceLogs, rl)
}

func appendRecord(b []byte, r Record) []byte {
	b = appendFixed64(b, recordTime, nanos(r.Time))
	b = appendVarint(b, recordSeverity, uint64(r.Severity))
	b = appendString(b, recordSeverityText, r.SeverityText)
	b = appendMessage(b, recordBody, appendAny(nil, Str(r.Name)))
	for _, kv := range r.Attrs {
		b = appendMessage(b, recordAttributes, appendKV(nil, kv))
	}
	b = appendFixed64(b, recordObserved, nanos(r.Observed))
	return appendString(b, recordEventName, r.Name)
}

func appendKV(b []byte, kv KeyValue) []byte {
	b = appendString(b, kvKey, kv.Key)
	return appendMessage(b, kvValue, appendAny(nil, kv.Value))
}

// appendAny writes a value's one field of AnyValue's oneof; a zero
// scalar is written too, as the oneof needs it to say which it is.
func appendAny(b []byte, v Value) []byte {
	switch v.kind {
	case kindBool:
		n := uint64(0)
		if v.b {
			n = 1
		}
		return appendVarint(b, anyBool, n)
	case kindInt:
		return appendVarint(b, anyInt, uint64(v.i))
	case kindDouble:
		return appendFixed64(b, anyDouble, math.Float64bits(v.f))
	case kindArray:
		var list []byte
		for _, e := range v.array {
			list = appendMessage(list, listValues, appendAny(nil, e))
		}
		return appendMessage(b, anyArray, list)
	case kindKVList:
		var list []byte
		for _, kv := range v.kvs {
			list = appendMessage(list, listValues, appendKV(nil, kv))
		}
		return appendMessage(b, anyKVList, list)
	}
	return appendMessage(b, anyString, []byte(v.s))
}

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func appendVarint(b []byte, field int, v uint64) []byte {
	return binary.AppendUvarint(appendTag(b, field, wireVarint), v)
}

func appendFixed64(b []byte, field int, v uint64) []byte {
	return binary.LittleEndian.AppendUint64(appendTag(b, field, wireFixed64), v)
}

// appendString leaves out an empty string, as proto3 does.
func appendString(b []byte, field int, s string) []byte {
	if s == "" {
		return b
	}
	return appendMessage(b, field, []byte(s))
}

// appendMessage writes a length-delimited field: a message, bytes or a
// string. An empty one is written: a present empty message (an empty
// scope) is not an absent one.
func appendMessage(b []byte, field int, msg []byte) []byte {
	b = binary.AppendUvarint(appendTag(b, field, wireBytes), uint64(len(msg)))
	return append(b, msg...)
}

func nanos(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}

// JSON is the batch as an OTLP/HTTP request body, JSON form (the
// protobuf JSON mapping with OTLP's rules: lowerCamelCase names, 64-bit
// integers as strings, enums as numbers).
func (b Batch) JSON() []byte {
	records := make([]jsonRecord, len(b.Records))
	for i, r := range b.Records {
		records[i] = jsonRecord{
			TimeUnixNano: strconv.FormatUint(nanos(r.Time), 10), ObservedTimeUnixNano: strconv.FormatUint(nanos(r.Observed), 10),
			SeverityNumber: r.Severity, SeverityText: r.SeverityText, Body: jsonAnyOf(Str(r.Name)),
			Attributes: jsonKVs(r.Attrs), EventName: r.Name,
		}
	}
	req := map[string]any{"resourceLogs": []any{map[string]any{
		"resource": map[string]any{"attributes": jsonKVs(b.Resource)},
		"scopeLogs": []any{map[string]any{
			"scope":      map[string]string{"name": ServiceName, "version": b.Version},
			"logRecords": records,
		}},
	}}}
	out, _ := json.Marshal(req) // of strings, numbers and bools only: it cannot fail
	return out
}

type jsonRecord struct {
	TimeUnixNano         string   `json:"timeUnixNano"`
	ObservedTimeUnixNano string   `json:"observedTimeUnixNano"`
	SeverityNumber       int      `json:"severityNumber"`
	SeverityText         string   `json:"severityText"`
	Body                 jsonAny  `json:"body"`
	Attributes           []jsonKV `json:"attributes"`
	EventName            string   `json:"eventName"`
}

type jsonKV struct {
	Key   string  `json:"key"`
	Value jsonAny `json:"value"`
}

type jsonAny struct {
	String *string     `json:"stringValue,omitempty"`
	Bool   *bool       `json:"boolValue,omitempty"`
	Int    string      `json:"intValue,omitempty"`
	Double *float64    `json:"doubleValue,omitempty"`
	Array  *jsonList   `json:"arrayValue,omitempty"`
	KVList *jsonKVList `json:"kvlistValue,omitempty"`
}

type jsonList struct {
	Values []jsonAny `json:"values"`
}

type jsonKVList struct {
	Values []jsonKV `json:"values"`
}

func jsonKVs(kvs []KeyValue) []jsonKV {
	out := make([]jsonKV, len(kvs))
	for i, kv := range kvs {
		out[i] = jsonKV{kv.Key, jsonAnyOf(kv.Value)}
	}
	return out
}

func jsonAnyOf(v Value) jsonAny {
	switch v.kind {
	case kindBool:
		return jsonAny{Bool: &v.b}
	case kindInt:
		return jsonAny{Int: strconv.FormatInt(v.i, 10)}
	case kindDouble:
		f := v.f
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0 // JSON has no such number; no event holds one
		}
		return jsonAny{Double: &f}
	case kindArray:
		l := &jsonList{Values: make([]jsonAny, len(v.array))}
		for i, e := range v.array {
			l.Values[i] = jsonAnyOf(e)
		}
		return jsonAny{Array: l}
	case kindKVList:
		return jsonAny{KVList: &jsonKVList{Values: jsonKVs(v.kvs)}}
	}
	s := v.s
	return jsonAny{String: &s}
}
