//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/e2e/fakeapi"
)

// The hooks' telemetry against a real OpenTelemetry Collector (built by
// scripts/otelcol.sh from e2e/otelcol/builder.yaml: an OTLP receiver and
// a file exporter), with Claude Code exporting its own events to the same
// collector, as a team that watches its agents runs it.

var (
	collectorOnce sync.Once
	collectorBin  string
	collectorErr  string
)

// requireCollector builds the collector once (cached between runs); it
// skips where it cannot be built, and fails in CI.
func requireCollector(t *testing.T) string {
	t.Helper()
	collectorOnce.Do(func() {
		cmd := exec.Command("bash", "../scripts/otelcol.sh", npmCache)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			collectorErr = fmt.Sprintf("building the collector: %v", err)
			return
		}
		collectorBin = strings.TrimSpace(string(out))
	})
	if collectorErr != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(collectorErr)
		}
		t.Skip(collectorErr)
	}
	return collectorBin
}

// collector is one running collector, on a loopback port it keeps across
// a restart, writing what it receives to a file.
type collector struct {
	t      *testing.T
	bin    string
	addr   string
	dir    string
	cmd    *exec.Cmd
	starts int
}

func startCollector(t *testing.T) *collector {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &collector{t: t, bin: requireCollector(t), addr: ln.Addr().String(), dir: t.TempDir()}
	ln.Close()
	c.start()
	t.Cleanup(c.stop)
	return c
}

// start starts the collector, writing to a file of its own: the file
// exporter starts its file anew.
func (c *collector) start() {
	c.t.Helper()
	c.starts++
	config := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  file:
    path: %s
    flush_interval: 50ms
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [file]
`, c.addr, filepath.Join(c.dir, fmt.Sprintf("received-%d.jsonl", c.starts)))
	path := filepath.Join(c.dir, fmt.Sprintf("config-%d.yaml", c.starts))
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.cmd = exec.Command(c.bin, "--config", path)
	log, _ := os.OpenFile(filepath.Join(c.dir, "collector.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	c.cmd.Stdout, c.cmd.Stderr = log, log
	if err := c.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if conn, err := net.Dial("tcp", c.addr); err == nil {
			conn.Close()
			return
		}
	}
	b, _ := os.ReadFile(filepath.Join(c.dir, "collector.log"))
	c.t.Fatalf("the collector did not listen on %s:\n%s", c.addr, b)
}

// stop stops the collector as an operator does (SIGTERM: it flushes its
// file first).
func (c *collector) stop() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	c.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
	c.cmd = nil
}

// received is one log record the collector wrote.
type received struct {
	Service string
	Name    string // the record's event name, else its body
	Attrs   map[string]any
}

// records are what the collector received, once its file holds at least
// want records of service (it flushes every 50 ms).
func (c *collector) records(service string, want int) []received {
	c.t.Helper()
	var got []received
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		got = c.read()
		n := 0
		for _, r := range got {
			if r.Service == service {
				n++
			}
		}
		if n >= want || time.Now().After(deadline) {
			return got
		}
	}
}

func (c *collector) read() []received {
	var out []received
	for i := 1; i <= c.starts; i++ {
		out = append(out, readReceived(filepath.Join(c.dir, fmt.Sprintf("received-%d.jsonl", i)))...)
	}
	return out
}

func readReceived(path string) []received {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []received
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var req struct {
			ResourceLogs []struct {
				Resource  struct{ Attributes []kv }
				ScopeLogs []struct {
					LogRecords []struct {
						EventName  string
						Body       map[string]any
						Attributes []kv
					}
				}
			}
		}
		if json.Unmarshal(sc.Bytes(), &req) != nil {
			continue
		}
		for _, rl := range req.ResourceLogs {
			service, _ := attrs(rl.Resource.Attributes)["service.name"].(string)
			for _, sl := range rl.ScopeLogs {
				for _, r := range sl.LogRecords {
					name := r.EventName
					if name == "" {
						name, _ = r.Body["stringValue"].(string)
					}
					out = append(out, received{Service: service, Name: name, Attrs: attrs(r.Attributes)})
				}
			}
		}
	}
	return out
}

type kv struct {
	Key   string
	Value map[string]any
}

// attrs flattens OTLP JSON attributes to their values (an int64 stays
// the string OTLP's JSON writes it as).
func attrs(kvs []kv) map[string]any {
	m := map[string]any{}
	for _, a := range kvs {
		for _, v := range a.Value {
			m[a.Key] = v
		}
	}
	return m
}

func TestHookEventsReachARealCollectorJoinedToClaudeCodesOwnAndLoseNothing(t *testing.T) {
	c := startCollector(t)
	s := newSession(t)
	s.api.Push(work(s.project)...)
	endpoint := "http://" + c.addr
	// Claude Code removes every OTEL_ variable from its hooks'
	// environment: the hooks read the SESSION_HOOKS_ forms.
	s.env = []string{"SESSION_HOOKS_ENABLE_TELEMETRY=1", "SESSION_HOOKS_OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint,
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "SESSION_HOOKS_OTEL_RESOURCE_ATTRIBUTES=team=agents",
		// Claude Code's own events, to the same collector.
		"CLAUDE_CODE_ENABLE_TELEMETRY=1", "OTEL_LOGS_EXPORTER=otlp", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORT_INTERVAL=200"}
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(c.dir, "collector.log"))
			t.Logf("export state:\n%s\ncollector log:\n%s\nreceived: %v", s.log("otlp.json"), b, services(c.read()))
		}
	}()
	id := s.claude(s.project, "-p", "Please write notes.txt.")
	s.claude(s.project, "-p", "/compact", "--resume", id)

	// Every hook run of the session is one record, with the session id
	// Claude Code's own events carry.
	ours := countEvents(t, s, id)
	got := c.records("session-hooks", ours)
	var hookNames, theirs []string
	for _, r := range got {
		switch r.Service {
		case "session-hooks":
			if r.Attrs["session.id"] != id || r.Attrs["client"] != "claude" {
				t.Errorf("a hook record without the session or the client: %v", r.Attrs)
			}
			hookNames = append(hookNames, r.Name)
		case "claude-code":
			if r.Attrs["session.id"] == id {
				theirs = append(theirs, r.Name)
			}
		}
	}
	if len(hookNames) != ours {
		t.Errorf("the collector got %d hook records, the event log holds %d: %q", len(hookNames), ours, hookNames)
	}
	for _, want := range []string{"session_hooks.init", "session_hooks.pre_compact", "session_hooks.post_compact", "session_hooks.end"} {
		if !contains1(hookNames, want) {
			t.Errorf("no %s record among %q", want, hookNames)
		}
	}
	if len(theirs) == 0 {
		t.Errorf("no Claude Code record carries the session id %s: the two cannot be joined (records: %v)", id, services(got))
	}

	// The collector stops mid-session: the hooks go on as before, and
	// once it is back, what they could not send arrives, once.
	c.stop()
	s.api.Push(fakeapi.Text("Noted."))
	s.claude(s.project, "-p", "One more thing.", "--resume", id)
	if st := s.log("otlp.json"); !strings.Contains(st, `"error"`) {
		t.Errorf("the export's state does not keep the failure:\n%s", st)
	}
	c.start()
	// The next hook sends what waits, its own event with it.
	s.api.Push(fakeapi.Text("Done."))
	s.claude(s.project, "-p", "And finish.", "--resume", id)
	ours = countEvents(t, s, id)
	got = c.records("session-hooks", ours)
	n := 0
	for _, r := range got {
		if r.Service == "session-hooks" {
			n++
		}
	}
	if n != ours {
		t.Errorf("after the collector came back: %d hook records for %d events", n, ours)
	}
	if st := s.log("otlp.json"); strings.Contains(st, `"error"`) {
		t.Errorf("the failure outlived the export that succeeded:\n%s", st)
	}
	if out := s.run("export"); !strings.Contains(out, "Nothing to send") {
		t.Errorf("export after the hooks caught up: %q", out)
	}
}

// countEvents is how many events of the session the event log holds.
func countEvents(t *testing.T, s *session, id string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(s.log("events.jsonl"), "\n") {
		if strings.Contains(line, `"session_id":"`+id+`"`) {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no event of %s in the log", id)
	}
	return n
}

func contains1(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func services(rs []received) map[string]int {
	m := map[string]int{}
	for _, r := range rs {
		m[r.Service+" "+r.Name]++
	}
	return m
}
