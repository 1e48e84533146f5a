// Package otlp sends the event log (.claude/logs/events.jsonl) to an
// OpenTelemetry collector as OTLP/HTTP log records, one record an event.
// It is off unless SESSION_HOOKS_ENABLE_TELEMETRY asks for it, and then
// configured by the standard OTEL_EXPORTER_OTLP_* variables, as the
// clients' own exporters are: a managed setting that turns on a client's
// telemetry puts those variables in every hook's environment, and that
// alone must not make us send anything.
//
// The event log is the spool: a cursor beside it (otlp.json) moves only
// when the collector accepts a batch, so what one run could not send a
// later one sends.
package otlp

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Variables read, by their standard names.
const (
	EnableVar   = "SESSION_HOOKS_ENABLE_TELEMETRY"
	endpointVar = "OTEL_EXPORTER_OTLP_ENDPOINT"
	// DefaultTimeout is OTEL_EXPORTER_OTLP_TIMEOUT's default: a person
	// command waits that long; a hook far less (HookBudget).
	DefaultTimeout = 10 * time.Second
	// HookBudget is the most a hook spends sending: a collector down or
	// silent costs each hook this, well inside every client's deadline.
	HookBudget = 300 * time.Millisecond
	// ServiceName is the resource's service.name unless OTEL_SERVICE_NAME
	// says otherwise.
	ServiceName = "session-hooks"
)

// Config is where and how records are sent.
type Config struct {
	Endpoint string // the URL posted to, /v1/logs included
	JSON     bool   // http/json; http/protobuf otherwise
	Gzip     bool
	Headers  [][2]string
	Timeout  time.Duration
	// CAFile, CertFile and KeyFile are the TLS files the OTEL_* variables
	// name: a CA to trust, and a client certificate with its key.
	CAFile, CertFile, KeyFile string
	Resource                  []KeyValue // service.name first
}

// Protocol is how the records are encoded, as OTEL_EXPORTER_OTLP_PROTOCOL
// names it.
func (c Config) Protocol() string {
	if c.JSON {
		return "http/json"
	}
	return "http/protobuf"
}

// Enabled says whether the hooks send: SESSION_HOOKS_ENABLE_TELEMETRY is
// 1 or true, and OTEL_SDK_DISABLED does not turn every exporter off.
func Enabled(getenv func(string) string) bool {
	return truthy(getenv(EnableVar)) && !truthy(ours(getenv)("OTEL_SDK_DISABLED"))
}

// OursPrefix before a standard variable's name gives its value to
// session-hooks alone, over the bare one: Claude Code deletes every OTEL_
// variable from the environment of its hooks (2.1.330, as the telemetry
// end-to-end test finds), and a team may want the hooks' records
// elsewhere than the client's (an HTTP receiver where the client's
// exporter speaks gRPC).
const OursPrefix = "SESSION_HOOKS_"

// ours reads a standard variable, its OursPrefix form first.
func ours(getenv func(string) string) func(string) string {
	return func(name string) string {
		if v := getenv(OursPrefix + name); strings.TrimSpace(v) != "" {
			return v
		}
		return getenv(name)
	}
}

func truthy(v string) bool {
	v = strings.TrimSpace(v)
	return v == "1" || strings.EqualFold(v, "true")
}

// FromEnv reads the configuration from the standard variables (the
// _LOGS_ forms first, each variable's OursPrefix form before it). It fails when records could not be sent as the
// variables say: no endpoint, a scheme other than http and https, gRPC.
// notes are the values it set aside (a header it cannot send, a timeout
// that is no number), each said with what was used instead.
func FromEnv(getenv func(string) string, version string) (c Config, notes []string, err error) {
	getenv = ours(getenv)
	logs := func(name string) string {
		if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_LOGS_" + name)); v != "" {
			return v
		}
		return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_" + name))
	}
	if c.Endpoint, err = endpoint(getenv); err != nil {
		return c, nil, err
	}
	switch p := logs("PROTOCOL"); p {
	case "", "http/protobuf":
	case "http/json":
		c.JSON = true
	case "grpc":
		return c, nil, fmt.Errorf("the OTLP protocol is grpc: session-hooks sends OTLP over HTTP only; set OTEL_EXPORTER_OTLP_LOGS_PROTOCOL=http/protobuf and the collector's HTTP receiver (port 4318) as OTEL_EXPORTER_OTLP_LOGS_ENDPOINT")
	default:
		return c, nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q: use http/protobuf or http/json", p)
	}
	switch z := logs("COMPRESSION"); z {
	case "gzip":
		c.Gzip = true
	case "", "none":
	default:
		notes = append(notes, fmt.Sprintf("OTEL_EXPORTER_OTLP_COMPRESSION=%q is not gzip or none; sending uncompressed", z))
	}
	c.Timeout = DefaultTimeout
	if t := logs("TIMEOUT"); t != "" {
		ms, perr := strconv.ParseUint(t, 10, 31)
		if perr != nil || ms == 0 {
			notes = append(notes, fmt.Sprintf("OTEL_EXPORTER_OTLP_TIMEOUT=%q is not a number of milliseconds; waiting %s", t, DefaultTimeout))
		} else {
			c.Timeout = time.Duration(ms) * time.Millisecond
		}
	}
	var more []string
	c.Headers, more = headers(logs("HEADERS"))
	notes = append(notes, more...)
	c.CAFile, c.CertFile, c.KeyFile = logs("CERTIFICATE"), logs("CLIENT_CERTIFICATE"), logs("CLIENT_KEY")
	if (c.CertFile == "") != (c.KeyFile == "") {
		notes = append(notes, "a client certificate needs both OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY; sending without one")
		c.CertFile, c.KeyFile = "", ""
	}
	c.Resource, more = resource(getenv, version)
	return c, append(notes, more...), nil
}

// endpoint is the URL records are posted to: the _LOGS_ variable as it is,
// else the base endpoint with /v1/logs after its path, as the
// specification has every exporter do.
func endpoint(getenv func(string) string) (string, error) {
	name, raw := "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"))
	if raw == "" {
		name, raw = endpointVar, strings.TrimSpace(getenv(endpointVar))
		if raw == "" {
			return "", fmt.Errorf("no collector: set %s (the collector's OTLP/HTTP receiver, such as http://localhost:4318); under Claude Code, which removes OTEL_ variables from its hooks' environment, %s", endpointVar, OursPrefix+endpointVar)
		}
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s=%q is not an http:// or https:// URL", name, raw)
	}
	if u.User != nil {
		return "", fmt.Errorf("%s holds a user name or password; put credentials in OTEL_EXPORTER_OTLP_HEADERS", name)
	}
	if name == endpointVar {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/v1/logs"
	}
	return u.String(), nil
}

// headers reads "name=value,name=value" (values percent-encoded), leaving
// out, with a note, a pair that is not one or that would not be one
// header line.
func headers(s string) ([][2]string, []string) {
	var out [][2]string
	var notes []string
	for _, pair := range strings.Split(s, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		value, err := url.PathUnescape(strings.TrimSpace(v))
		if !ok || !token(k) || err != nil || !headerValue(value) {
			notes = append(notes, fmt.Sprintf("OTEL_EXPORTER_OTLP_HEADERS: %q is not a header name=value; left out", firstWord(k)))
			continue
		}
		out = append(out, [2]string{k, value})
	}
	return out, notes
}

// firstWord is the part of a header's name a note may show: never its
// value, which is most often a secret.
func firstWord(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut-- // not through a character
	}
	return s[:cut] + "…"
}

// token says whether s can be an HTTP header's name.
func token(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// headerValue says whether s can be sent as a header's value: no line
// break (which would start a header or a body of its own) and no other
// control character.
func headerValue(s string) bool {
	for _, r := range s {
		if r < ' ' && r != '\t' || r == 0x7f {
			return false
		}
	}
	return true
}

// resource is the resource's attributes: service.name (OTEL_SERVICE_NAME,
// else the one in OTEL_RESOURCE_ATTRIBUTES, else session-hooks), our
// version, then the rest of OTEL_RESOURCE_ATTRIBUTES as it orders them.
func resource(getenv func(string) string, version string) ([]KeyValue, []string) {
	name := ServiceName
	var rest []KeyValue
	var notes []string
	for _, pair := range strings.Split(getenv("OTEL_RESOURCE_ATTRIBUTES"), ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		value, err := url.PathUnescape(strings.TrimSpace(v))
		if !ok || k == "" || err != nil {
			notes = append(notes, fmt.Sprintf("OTEL_RESOURCE_ATTRIBUTES: %q is not key=value; left out", firstWord(k)))
			continue
		}
		switch k {
		case "service.name":
			name = value
		case "service.version":
		default:
			rest = append(rest, KeyValue{k, Str(value)})
		}
	}
	if n := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); n != "" {
		name = n
	}
	return append([]KeyValue{{"service.name", Str(name)}, {"service.version", Str(version)}}, rest...), notes
}
