package otlp

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// collector is a fake OTLP/HTTP receiver: it answers each request with
// the next status of its script (200 once the script is spent) and keeps
// the sessions of the records it accepted, in order.
type collector struct {
	*httptest.Server
	mu       sync.Mutex
	script   []int
	accepted []string // session ids
	requests []*http.Request
	bodies   [][]byte
}

func newCollector(t *testing.T, script ...int) *collector {
	c := &collector{script: script}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Content-Encoding") == "gzip" {
			z, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Errorf("gzip: %v", err)
				return
			}
			body, _ = io.ReadAll(z)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.requests, c.bodies = append(c.requests, r), append(c.bodies, body)
		status := 200
		if len(c.script) > 0 {
			status, c.script = c.script[0], c.script[1:]
		}
		if status != 200 {
			w.WriteHeader(status)
			io.WriteString(w, "\x0a\x0bno capacity")
			return
		}
		var req logspb.LogsData
		decode := proto.Unmarshal
		if r.Header.Get("Content-Type") == "application/json" {
			decode = protojson.Unmarshal
		}
		if err := decode(body, &req); err != nil {
			t.Errorf("the collector cannot read the body: %v", err)
		}
		for _, r := range req.ResourceLogs[0].ScopeLogs[0].LogRecords {
			c.accepted = append(c.accepted, r.Attributes[0].Value.GetStringValue())
		}
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *collector) sessions() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.accepted, " ")
}

func project(t *testing.T) logs.Dir {
	return logs.DirFor(t.TempDir())
}

func appendEvents(t *testing.T, d logs.Dir, ids ...string) events.Position {
	t.Helper()
	var first events.Position
	for i, id := range ids {
		at, err := events.AppendAt(d, events.Event{SchemaVersion: 1, Time: time.Now(), Session: id, Subcommand: "init"})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = at
		}
	}
	return first
}

func options(url string) Options {
	return Options{Config: Config{Endpoint: url + "/v1/logs", Timeout: 5 * time.Second}, Now: time.Now, UserAgent: "test"}
}

func export(t *testing.T, d logs.Dir, opt Options) (Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return Export(ctx, d, opt)
}

func TestAnExportSendsEachEventOnce(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a", "b")
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 2 {
		t.Fatalf("first export: %+v, %v", res, err)
	}
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 0 {
		t.Fatalf("second export: %+v, %v", res, err)
	}
	appendEvents(t, d, "c")
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 1 || res.State.Sent != 3 {
		t.Fatalf("third export: %+v, %v", res, err)
	}
	if got := c.sessions(); got != "a b c" {
		t.Errorf("the collector got %q", got)
	}
}

// A hook's first export starts at its own line: what the log held before
// telemetry was on stays on the machine.
func TestAFirstExportStartsWhereItIsTold(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "before", "before-too")
	opt := options(c.URL)
	opt.From = appendEvents(t, d, "mine")
	if res, err := export(t, d, opt); err != nil || res.Sent != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := c.sessions(); got != "mine" {
		t.Errorf("the collector got %q", got)
	}
}

func TestACollectorDownLosesNothing(t *testing.T) {
	for _, status := range []int{429, 503, 401, 404} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			c := newCollector(t, status, status)
			d := project(t)
			appendEvents(t, d, "a", "b")
			for range 2 {
				res, err := export(t, d, options(c.URL))
				if err == nil || res.Sent != 0 || !res.More {
					t.Fatalf("export to a collector answering %d: %+v, %v", status, res, err)
				}
				if !strings.Contains(err.Error(), fmt.Sprint(status)) || !strings.Contains(err.Error(), "no capacity") {
					t.Errorf("the error does not say what the collector said: %v", err)
				}
			}
			st, _ := LoadState(d)
			if st.Error == "" || st.Since.IsZero() || st.Sent != 0 {
				t.Errorf("state after failures: %+v", st)
			}
			appendEvents(t, d, "c")
			if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 3 {
				t.Fatalf("export once the collector is back: %+v, %v", res, err)
			}
			if got := c.sessions(); got != "a b c" {
				t.Errorf("the collector got %q", got)
			}
			if st, _ := LoadState(d); st.Error != "" || !st.Since.IsZero() || st.Sent != 3 {
				t.Errorf("state after success: %+v", st)
			}
		})
	}
}

func TestARequestRefusedForGoodIsNotSentAgain(t *testing.T) {
	c := newCollector(t, 400)
	d := project(t)
	appendEvents(t, d, "a")
	res, err := export(t, d, options(c.URL))
	if err == nil || res.Dropped != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	appendEvents(t, d, "b")
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := c.sessions(); got != "b" {
		t.Errorf("the collector got %q", got)
	}
	if st, _ := LoadState(d); st.Dropped != 1 || st.Sent != 1 {
		t.Errorf("state: %+v", st)
	}
}

// A collector that accepts the connection and never answers costs the
// budget given, not the collector's 10 seconds.
func TestASilentCollectorCostsTheBudget(t *testing.T) {
	addr := testenv.SilentServer(t)
	d := project(t)
	appendEvents(t, d, "a")
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Export(ctx, d, options("http://"+addr))
	if took := time.Since(start); took > 150*time.Millisecond*time.Duration(testenv.Slowdown())+time.Second {
		t.Errorf("a silent collector cost %s", took)
	}
	if err == nil || res.Sent != 0 || !res.More {
		t.Errorf("%+v, %v", res, err)
	}
	if st, _ := LoadState(d); st.Cursor != (events.Position{}) {
		t.Errorf("the cursor moved: %+v", st.Cursor)
	}
}

func TestAnswersThatAreNotOTLPHTTPFail(t *testing.T) {
	for name, answer := range map[string]string{
		"a gRPC port": "\x00\x00\x12\x04\x00\x00\x00\x00\x00",
		"cut short":   "HTTP/1.1 200 OK\r\nContent-",
		"nothing":     "",
	} {
		t.Run(name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				conn.SetReadDeadline(time.Now().Add(time.Second))
				conn.Read(make([]byte, 4096))
				io.WriteString(conn, answer)
				conn.Close()
			}()
			d := project(t)
			appendEvents(t, d, "a")
			if res, err := export(t, d, options("http://"+ln.Addr().String())); err == nil || res.Sent != 0 {
				t.Errorf("%+v, %v", res, err)
			}
		})
	}
}

func TestACollectorNobodyListensOnFailsAtOnce(t *testing.T) {
	addr := testenv.ClosedPort(t)
	d := project(t)
	appendEvents(t, d, "a")
	_, err := export(t, d, options("http://"+addr))
	if err == nil || !strings.Contains(err.Error(), "cannot reach the collector") {
		t.Errorf("err = %v", err)
	}
}

func TestHeadersCompressionAndContentTypeReachTheCollector(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a")
	opt := options(c.URL)
	opt.Config.Gzip = true
	opt.Config.Headers = [][2]string{{"api-key", "s3cret"}, {"Content-Length", "1"}, {"Host", "evil"}}
	if _, err := export(t, d, opt); err != nil {
		t.Fatal(err)
	}
	r := c.requests[0]
	if r.Method != "POST" || r.URL.Path != "/v1/logs" || r.Header.Get("Content-Type") != "application/x-protobuf" ||
		r.Header.Get("api-key") != "s3cret" || r.Host != strings.TrimPrefix(c.URL, "http://") || r.UserAgent() != "test" {
		t.Errorf("request: %s %s host %q %v", r.Method, r.URL, r.Host, r.Header)
	}
	if c.sessions() != "a" {
		t.Errorf("the collector got %q", c.sessions())
	}
	opt.Config.JSON, opt.Config.Gzip = true, false
	appendEvents(t, d, "b")
	if _, err := export(t, d, opt); err != nil {
		t.Fatal(err)
	}
	if ct := c.requests[1].Header.Get("Content-Type"); ct != "application/json" || !bytes.Contains(c.bodies[1], []byte(`"stringValue":"b"`)) {
		t.Errorf("JSON request: %s %s", ct, c.bodies[1])
	}
}

// Rotation renames the log under the cursor: the export finishes the
// rotated file, then goes on with the new one.
func TestTheCursorFollowsTheLogThroughARotation(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a")
	if _, err := export(t, d, options(c.URL)); err != nil {
		t.Fatal(err)
	}
	appendEvents(t, d, "b")
	rotate(t, d)
	appendEvents(t, d, "c")
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 2 || res.Lost {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := c.sessions(); got != "a b c" {
		t.Errorf("the collector got %q", got)
	}
}

// Two rotations while the collector was away: the oldest file kept is
// sent, and the export says events were lost.
func TestEventsRotatedAwayAreSaidLost(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a")
	if _, err := export(t, d, options(c.URL)); err != nil {
		t.Fatal(err)
	}
	appendEvents(t, d, "b")
	rotate(t, d)
	appendEvents(t, d, "c")
	rotate(t, d)
	appendEvents(t, d, "d")
	res, err := export(t, d, options(c.URL))
	if err != nil || !res.Lost || res.Sent != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := c.sessions(); got != "a c d" {
		t.Errorf("the collector got %q", got)
	}
}

// A line this user's session-hooks did not seal (one the repository
// committed) is never sent, and the cursor passes it.
func TestALineNotSealedIsNotSent(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a")
	f, err := os.OpenFile(filepath.Join(d.Path, events.File), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, `{"schema_version":1,"time":"2026-01-01T00:00:00Z","session_id":"forged","subcommand":"init"}`+"\n")
	f.Close()
	appendEvents(t, d, "b")
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := c.sessions(); got != "a b" {
		t.Errorf("the collector got %q", got)
	}
}

func TestABacklogLargerThanABatchGoesInSeveralRequests(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	var ids []string
	for i := range 3000 {
		ids = append(ids, fmt.Sprint(i))
		// Each line about 600 bytes: 1.8 MB, over one batch.
		if _, err := events.AppendAt(d, events.Event{SchemaVersion: 1, Time: time.Now(), Session: ids[i], Subcommand: "init",
			Skipped: []string{strings.Repeat("a note ", 50)}}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := export(t, d, options(c.URL))
	if err != nil || res.Sent != len(ids) {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(c.requests) < 2 {
		t.Errorf("%d requests", len(c.requests))
	}
	if got := c.sessions(); got != strings.Join(ids, " ") {
		t.Errorf("the collector got another order or another count (%d)", len(strings.Fields(got)))
	}
}

func TestOneExportAtATime(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a")
	unlock, ok, err := lock(d)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	res, err := export(t, d, options(c.URL))
	if err != nil || !res.Busy || res.Sent != 0 {
		t.Errorf("while locked: %+v, %v", res, err)
	}
	unlock()
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 1 {
		t.Errorf("after: %+v, %v", res, err)
	}
}

// rotate does what events.Append does past MaxSize.
func rotate(t *testing.T, d logs.Dir) {
	t.Helper()
	p := filepath.Join(d.Path, events.File)
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
}

func TestStatusLinesAreReadAsHTTPSays(t *testing.T) {
	for _, tc := range []struct {
		answer string
		status int // 0: accepted
		fails  bool
	}{
		{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 0, false},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", 0, false},
		{"HTTP/1.1 299 Odd\r\n\r\n", 0, false},
		{"HTTP/1.1 300 Multiple Choices\r\n\r\n", 300, true},
		{"HTTP/1.1 599 Odd\r\n\r\n", 599, true},
		{"HTTP/1.1 600 Beyond\r\n\r\n", 0, true},
		{"HTTP/1.1 099 Below\r\n\r\n", 0, true},
		{"HTTP/2 200\r\n\r\n", 0, true},
	} {
		err := readStatus(bufio.NewReader(strings.NewReader(tc.answer)))
		var refused *Refused
		if (err != nil) != tc.fails || (tc.status != 0) != errors.As(err, &refused) || (refused != nil && refused.Status != tc.status) {
			t.Errorf("%q: %v", tc.answer, err)
		}
	}
}

// With nothing to send, an export does not even connect: a collector
// down costs nothing and is no failure.
func TestNothingToSendIsNoFailureWhateverTheCollector(t *testing.T) {
	c := newCollector(t)
	d := project(t)
	appendEvents(t, d, "a")
	if _, err := export(t, d, options(c.URL)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if res, err := export(t, d, options(c.URL)); err != nil || res.Sent != 0 {
		t.Errorf("%+v, %v", res, err)
	}
	if st, _ := LoadState(d); st.Error != "" {
		t.Errorf("a failure recorded with nothing sent: %+v", st)
	}
}

// A collector down for a while: the state says since when, and the same
// failure is not written again at every run.
func TestARepeatedFailureKeepsItsStartAndIsWrittenOnce(t *testing.T) {
	addr := testenv.ClosedPort(t)
	d := project(t)
	appendEvents(t, d, "a")
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	opt := options("http://" + addr)
	opt.Now = func() time.Time { return now }
	export(t, d, opt)
	fi1, err := os.Stat(filepath.Join(d.Path, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	export(t, d, opt)
	fi2, _ := os.Stat(filepath.Join(d.Path, StateFile))
	if !os.SameFile(fi1, fi2) {
		t.Error("the same failure was written again")
	}
	appendEvents(t, d, "b")
	now = now.Add(time.Hour)
	export(t, d, opt)
	st, _ := LoadState(d)
	if want := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC); !st.Since.Equal(want) || st.Error == "" {
		t.Errorf("failing since %v (%q), want %v", st.Since, st.Error, want)
	}
}
