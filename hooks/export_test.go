package hooks

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
	"github.com/session-hooks/session-hooks/logs/otlp"
)

// exportWorld is a project with one event logged, and the options of a
// hook run that exports it to url.
func exportWorld(t *testing.T, url string, enabled bool) (logs.Dir, events.Position, Options) {
	t.Helper()
	d := logs.DirFor(t.TempDir())
	at, err := events.AppendAt(d, events.Event{SchemaVersion: 1, Time: time.Now(), Session: "s", Subcommand: "init"})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{otlp.OursPrefix + "OTEL_EXPORTER_OTLP_ENDPOINT": url}
	if enabled {
		env[otlp.EnableVar] = "1"
	}
	return d, at, Options{Deadline: 5 * time.Second, Now: time.Now, Version: "t", Getenv: func(k string) string { return env[k] }}
}

func countingCollector(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n.Add(1)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

func TestAHookExportsOnlyWhenTelemetryIsOn(t *testing.T) {
	for _, on := range []bool{false, true} {
		s, n := countingCollector(t)
		d, at, opt := exportWorld(t, s.URL, on)
		exportEvents(d, at, opt, time.Now())
		if got := n.Load() == 1; got != on {
			t.Errorf("telemetry on %v: %d requests", on, n.Load())
		}
	}
}

// A deadline nearly spent leaves the export to a later run.
func TestAHookAtItsDeadlineDoesNotExport(t *testing.T) {
	s, n := countingCollector(t)
	d, at, opt := exportWorld(t, s.URL, true)
	opt.Deadline = time.Second
	exportEvents(d, at, opt, time.Now().Add(-opt.Deadline+minExport/2))
	if n.Load() != 0 {
		t.Errorf("%d requests with %s of the deadline left", n.Load(), minExport/2)
	}
	exportEvents(d, at, opt, time.Now().Add(-opt.Deadline+minExport*4))
	if n.Load() != 1 {
		t.Errorf("%d requests with %s of the deadline left", n.Load(), minExport*4)
	}
}

// A collector that accepts and never answers costs the hook its budget,
// and the failure and the cursor are kept for the next run.
func TestASilentCollectorCostsAHookItsBudget(t *testing.T) {
	d, at, opt := exportWorld(t, "http://"+testenv.SilentServer(t), true)
	start := time.Now()
	exportEvents(d, at, opt, start)
	took := time.Since(start)
	if took < otlp.HookBudget-stateMargin || took > testenv.Scaled(otlp.HookBudget+200*time.Millisecond) {
		t.Errorf("the export took %s, its budget %s", took, otlp.HookBudget)
	}
	st, ok := otlp.LoadState(d)
	if !ok || st.Error == "" || st.Cursor.Offset != at.Offset {
		t.Errorf("state after a silent collector: %+v (found %v)", st, ok)
	}
}

// A bad configuration is kept for doctor; the hook sends nothing.
func TestABadConfigurationIsKeptForDoctor(t *testing.T) {
	d, at, opt := exportWorld(t, "localhost:4318", true)
	exportEvents(d, at, opt, time.Now())
	if st, _ := otlp.LoadState(d); st.Error == "" {
		t.Error("the configuration's failure was not kept")
	}
}

// A hook run with telemetry on sends its own event once its output is
// written; with the log not written, there is nothing to send.
func TestAHookRunSendsItsOwnEvent(t *testing.T) {
	s, n := countingCollector(t)
	dir := t.TempDir()
	env := map[string]string{otlp.EnableVar: "1", otlp.OursPrefix + "OTEL_EXPORTER_OTLP_ENDPOINT": s.URL, "CLAUDE_PROJECT_DIR": dir}
	opt := Options{Deadline: 5 * time.Second, Getenv: func(k string) string { return env[k] }}
	payload := `{"session_id":"s","hook_event_name":"SessionStart","cwd":` + strconv.Quote(dir) + `}`
	var out strings.Builder
	executeText(strings.NewReader(payload), &out, eventtable.Event{Command: "init"}, func(*Run) string { return "the answer\n" }, opt)
	if out.String() != "the answer\n" || n.Load() != 1 {
		t.Errorf("output %q, %d requests", out.String(), n.Load())
	}
	st, ok := otlp.LoadState(logs.DirFor(dir))
	if !ok || st.Sent != 1 {
		t.Errorf("state %+v", st)
	}
	opt.NoLog = true
	executeText(strings.NewReader(payload), &out, eventtable.Event{Command: "init"}, func(*Run) string { return "" }, opt)
	if n.Load() != 1 {
		t.Errorf("a run with --no-log sent: %d requests", n.Load())
	}
}
