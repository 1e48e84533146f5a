package otlp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestTheHooksSendOnlyWhenAskedTo(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want bool
	}{
		{nil, false},
		// A managed setting turning on the client's own telemetry.
		{[]string{"CLAUDE_CODE_ENABLE_TELEMETRY", "1", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_LOGS_EXPORTER", "otlp"}, false},
		{[]string{EnableVar, "1"}, true},
		{[]string{EnableVar, "true"}, true},
		{[]string{EnableVar, " TRUE "}, true},
		{[]string{EnableVar, "0"}, false},
		{[]string{EnableVar, "yes please"}, false},
		{[]string{EnableVar, "1", "OTEL_SDK_DISABLED", "true"}, false},
		{[]string{EnableVar, "1", "OTEL_SDK_DISABLED", "false"}, true},
	} {
		if got := Enabled(env(tc.env...)); got != tc.want {
			t.Errorf("Enabled(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestTheEndpointIsTheStandardVariables(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
		err  string
	}{
		{[]string{endpointVar, "http://localhost:4318"}, "http://localhost:4318/v1/logs", ""},
		{[]string{endpointVar, "http://localhost:4318/"}, "http://localhost:4318/v1/logs", ""},
		{[]string{endpointVar, "https://otel.example.com/prefix"}, "https://otel.example.com/prefix/v1/logs", ""},
		// The signal's own variable is taken as it is, and first.
		{[]string{endpointVar, "http://a:4318", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "http://b:9999/custom"}, "http://b:9999/custom", ""},
		{nil, "", "no collector"},
		{[]string{endpointVar, "localhost:4318"}, "", "not an http:// or https:// URL"},
		{[]string{endpointVar, "ftp://x"}, "", "not an http:// or https:// URL"},
		{[]string{endpointVar, "http://user:secret@x:4318"}, "", "user name or password"},
	} {
		c, _, err := FromEnv(env(tc.env...), "v")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: err = %v, want %q", tc.env, err, tc.err)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("the error shows the password: %v", err)
			}
			continue
		}
		if err != nil || c.Endpoint != tc.want {
			t.Errorf("%v: endpoint %q, %v; want %q", tc.env, c.Endpoint, err, tc.want)
		}
	}
}

func TestTheProtocolIsHTTPProtobufUnlessJSONIsAsked(t *testing.T) {
	for _, tc := range []struct {
		env      []string
		json     bool
		errMatch string
	}{
		{nil, false, ""},
		{[]string{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"}, false, ""},
		{[]string{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"}, true, ""},
		{[]string{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/json"}, true, ""},
		{[]string{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}, false, "OTLP over HTTP only"},
		{[]string{"OTEL_EXPORTER_OTLP_PROTOCOL", "thrift"}, false, "use http/protobuf or http/json"},
	} {
		c, _, err := FromEnv(env(append(tc.env, endpointVar, "http://c:4318")...), "v")
		if tc.errMatch != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errMatch) {
				t.Errorf("%v: err = %v", tc.env, err)
			}
			continue
		}
		if err != nil || c.JSON != tc.json {
			t.Errorf("%v: JSON %v, %v; want %v", tc.env, c.JSON, err, tc.json)
		}
	}
}

func TestHeadersTimeoutAndCompressionAreRead(t *testing.T) {
	c, notes, err := FromEnv(env(endpointVar, "http://c:4318",
		"OTEL_EXPORTER_OTLP_HEADERS", "api-key=s%3Dcr%2Cet, x-team = infra ,,bad header=1,x-inject=a%0D%0AHost: evil,novalue",
		"OTEL_EXPORTER_OTLP_TIMEOUT", "2500", "OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"), "v")
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"api-key", "s=cr,et"}, {"x-team", "infra"}}
	if !slices.Equal(c.Headers, want) {
		t.Errorf("headers = %q, want %q", c.Headers, want)
	}
	if len(notes) != 3 {
		t.Errorf("want a note for each of the three bad headers, got %q", notes)
	}
	for _, n := range notes {
		if strings.Contains(n, "evil") || strings.Contains(n, "cr,et") {
			t.Errorf("a note shows a header's value: %q", n)
		}
	}
	if c.Timeout != 2500*time.Millisecond || !c.Gzip {
		t.Errorf("timeout %v, gzip %v", c.Timeout, c.Gzip)
	}
	// The signal's variables replace the general ones.
	c, _, _ = FromEnv(env(endpointVar, "http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS", "a=1", "OTEL_EXPORTER_OTLP_LOGS_HEADERS", "b=2",
		"OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "100"), "v")
	if !slices.Equal(c.Headers, [][2]string{{"b", "2"}}) || c.Timeout != 100*time.Millisecond {
		t.Errorf("logs variables: headers %q, timeout %v", c.Headers, c.Timeout)
	}
}

func TestABadValueFallsBackWithANote(t *testing.T) {
	c, notes, err := FromEnv(env(endpointVar, "http://c:4318", "OTEL_EXPORTER_OTLP_TIMEOUT", "10s",
		"OTEL_EXPORTER_OTLP_COMPRESSION", "zstd", "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", "/c.pem"), "v")
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout != DefaultTimeout || c.Gzip || c.CertFile != "" {
		t.Errorf("timeout %v, gzip %v, cert %q", c.Timeout, c.Gzip, c.CertFile)
	}
	if len(notes) != 3 {
		t.Errorf("notes = %q", notes)
	}
}

func TestTheResourceNamesTheServiceAndKeepsTheTeamsAttributes(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want []string
	}{
		{nil, []string{"service.name=session-hooks", "service.version=1.2.3"}},
		{[]string{"OTEL_RESOURCE_ATTRIBUTES", "team=infra,deployment.environment=ci%20runner,service.version=9"},
			[]string{"service.name=session-hooks", "service.version=1.2.3", "team=infra", "deployment.environment=ci runner"}},
		{[]string{"OTEL_RESOURCE_ATTRIBUTES", "service.name=agents,x"}, []string{"service.name=agents", "service.version=1.2.3"}},
		{[]string{"OTEL_RESOURCE_ATTRIBUTES", "service.name=agents", "OTEL_SERVICE_NAME", "hooks"}, []string{"service.name=hooks", "service.version=1.2.3"}},
	} {
		c, _, err := FromEnv(env(append(tc.env, endpointVar, "http://c:4318")...), "1.2.3")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, kv := range c.Resource {
			got = append(got, kv.Key+"="+kv.Value.s)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: resource %q, want %q", tc.env, got, tc.want)
		}
	}
}

// Claude Code removes OTEL_ variables from its hooks' environment; the
// SESSION_HOOKS_ forms reach them, and win over the bare ones.
func TestOurOwnFormOfEachVariableWins(t *testing.T) {
	get := env(EnableVar, "1",
		"OTEL_EXPORTER_OTLP_ENDPOINT", "http://client-grpc:4317", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
		"SESSION_HOOKS_OTEL_EXPORTER_OTLP_ENDPOINT", "http://hooks:4318", "SESSION_HOOKS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/json",
		"SESSION_HOOKS_OTEL_EXPORTER_OTLP_HEADERS", "k=v", "SESSION_HOOKS_OTEL_SERVICE_NAME", "agent-hooks")
	c, _, err := FromEnv(get, "v")
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint != "http://hooks:4318/v1/logs" || !c.JSON || !slices.Equal(c.Headers, [][2]string{{"k", "v"}}) || c.Resource[0].Value.s != "agent-hooks" {
		t.Errorf("config = %+v", c)
	}
	if Enabled(env(EnableVar, "1", "SESSION_HOOKS_OTEL_SDK_DISABLED", "true")) {
		t.Error("SESSION_HOOKS_OTEL_SDK_DISABLED=true left the export on")
	}
}

func TestHeaderNamesAndValuesAreHTTPs(t *testing.T) {
	for _, tc := range []struct {
		pair string
		ok   bool
	}{
		{"x~y=1", true},             // ~ is a token character, the last one
		{"x\x7fy=1", false},         // DEL is not
		{"auth=Bearer%20abc", true}, // a space in a value
		{"auth=a%09b", true},        // a tab in a value
		{"auth=a%7Fb", false},       // DEL in a value
		{"auth=a%1Fb", false},       // a control character
		{"x:y=1", false},
	} {
		h, notes := headers(tc.pair)
		if got := len(h) == 1 && len(notes) == 0; got != tc.ok {
			t.Errorf("%q: accepted %v, want %v (%q)", tc.pair, got, tc.ok, notes)
		}
	}
}

func TestANoteShowsAtMostTheStartOfAName(t *testing.T) {
	if got := firstWord(strings.Repeat("n", 40)); got != strings.Repeat("n", 40) {
		t.Errorf("a 40-byte name was cut: %q", got)
	}
	if got := firstWord(strings.Repeat("n", 41)); got != strings.Repeat("n", 40)+"…" {
		t.Errorf("a 41-byte name: %q", got)
	}
}
