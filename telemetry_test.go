//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/otlp"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	"google.golang.org/protobuf/proto"
)

// fakeCollector is an OTLP/HTTP receiver keeping each record it got as
// "event session client".
type fakeCollector struct {
	*httptest.Server
	mu      sync.Mutex
	records []string
}

func newFakeCollector(t *testing.T) *fakeCollector {
	c := &fakeCollector{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req logspb.LogsData
		if err := proto.Unmarshal(body, &req); err != nil || r.URL.Path != "/v1/logs" {
			t.Errorf("the collector got %s %s: %v", r.Method, r.URL, err)
			w.WriteHeader(400)
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, rec := range req.ResourceLogs[0].ScopeLogs[0].LogRecords {
			attrs := map[string]string{}
			for _, kv := range rec.Attributes {
				attrs[kv.Key] = kv.Value.GetStringValue()
			}
			c.records = append(c.records, rec.EventName+" "+attrs["session.id"]+" "+attrs["client"])
		}
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *fakeCollector) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.records...)
}

// runHook runs one hook with env added, checking the hook contract (exit
// 0, nothing on stderr), and says how long it took.
func runHook(t *testing.T, e *faultEnv, env []string, args ...string) (string, time.Duration) {
	t.Helper()
	cmd := exec.Command(hookBinary(t), args...)
	cmd.Dir = e.project
	cmd.Env = append(os.Environ(), env...)
	b, _ := json.Marshal(e.payload)
	cmd.Stdin = bytes.NewReader(b)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil || stderr.Len() > 0 {
		t.Errorf("%v: exit %v, stderr %q", args, err, stderr.String())
	}
	return stdout.String(), took
}

func telemetryEnv(endpoint string) []string {
	return []string{otlp.EnableVar + "=1", "OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint}
}

func TestWithTelemetryOnEveryHookRunReachesTheCollector(t *testing.T) {
	c := newFakeCollector(t)
	e := newFaultEnv(t).repo()
	e.payload["hook_event_name"] = "SessionStart"
	runHook(t, e, telemetryEnv(c.URL), "init")
	e.payload["hook_event_name"] = "PreCompact"
	e.payload["trigger"] = "manual"
	runHook(t, e, telemetryEnv(c.URL), "pre-compact")
	want := []string{"session_hooks.init fault-session claude", "session_hooks.pre_compact fault-session claude"}
	if got := c.got(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the collector got %q, want %q", got, want)
	}
}

// A managed setting that turns on the client's own telemetry puts the
// OTEL_* variables in every hook's environment: that alone sends nothing.
func TestTheClientsTelemetryAloneSendsNothing(t *testing.T) {
	c := newFakeCollector(t)
	e := newFaultEnv(t).repo()
	runHook(t, e, []string{"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_EXPORTER_OTLP_ENDPOINT=" + c.URL,
		"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"}, "init")
	if got := c.got(); len(got) != 0 {
		t.Errorf("the collector got %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, ".claude", "logs", otlp.StateFile)); err == nil {
		t.Errorf("an export state was written with telemetry off")
	}
}

// A collector that accepts connections and never answers costs a hook
// the export's budget, not its deadline; what it could not send, the
// next run sends once the collector answers.
func TestASilentCollectorCostsAHookItsBudgetAndLosesNothing(t *testing.T) {
	e := newFaultEnv(t).repo()
	e.payload["hook_event_name"] = "SessionStart"
	env := telemetryEnv("http://" + testenv.SilentServer(t))
	quiet, _ := runHook(t, e, nil, "init")
	out, took := runHook(t, e, env, "init")
	if out != quiet {
		t.Errorf("the export changed the output:\n%s\nwithout it:\n%s", out, quiet)
	}
	if limit := testenv.Scaled(otlp.HookBudget + 700*time.Millisecond); took > limit {
		t.Errorf("a silent collector cost the hook %s (budget %s)", took, otlp.HookBudget)
	}
	st, ok := otlp.LoadState(logsDirOf(e))
	if !ok || st.Error == "" || st.Sent != 0 {
		t.Errorf("the failure is not kept for status and doctor: %+v", st)
	}
	c := newFakeCollector(t)
	e.payload["hook_event_name"] = "SessionEnd"
	runHook(t, e, telemetryEnv(c.URL), "end")
	// The run without telemetry is not sent: it came before the cursor.
	want := []string{"session_hooks.init fault-session claude", "session_hooks.end fault-session claude"}
	if got := c.got(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the collector got %q, want %q", got, want)
	}
}

func TestExportSendsTheBacklogAndSaysWhatItSent(t *testing.T) {
	e := newFaultEnv(t).repo()
	for range 3 {
		runHook(t, e, nil, "init")
	}
	c := newFakeCollector(t)
	export := func(env ...string) (string, string, error) {
		cmd := exec.Command(hookBinary(t), "export")
		cmd.Dir = e.project
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	out, stderr, err := export("OTEL_EXPORTER_OTLP_ENDPOINT=" + c.URL)
	if err != nil || !strings.Contains(out, "Sent 3 events to "+c.URL+"/v1/logs (http/protobuf).") ||
		!strings.Contains(out, "SESSION_HOOKS_ENABLE_TELEMETRY is not 1") {
		t.Errorf("export: %v, %q, %q", err, out, stderr)
	}
	if len(c.got()) != 3 {
		t.Errorf("the collector got %q", c.got())
	}
	out, _, err = export("OTEL_EXPORTER_OTLP_ENDPOINT=" + c.URL)
	if err != nil || !strings.Contains(out, "Nothing to send") || !strings.Contains(out, "(3 in all)") {
		t.Errorf("a second export: %v, %q", err, out)
	}
	for name, tc := range map[string]struct {
		env  []string
		want string
	}{
		"no endpoint": {nil, "no collector: set OTEL_EXPORTER_OTLP_ENDPOINT"},
		"down":        {[]string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1"}, "cannot reach the collector"},
		"gRPC":        {[]string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + c.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=grpc"}, "OTLP over HTTP only"},
	} {
		runHook(t, e, nil, "init")
		out, stderr, err := export(tc.env...)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: %v, stdout %q, stderr %q", name, err, out, stderr)
		}
	}
}

func logsDirOf(e *faultEnv) logs.Dir { return logs.DirFor(e.project) }
