package hooks

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

var clock = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func TestChooseSharedSnapshotByIDThenAge(t *testing.T) {
	tests := []struct {
		name     string
		info     logs.SnapshotInfo
		id       string
		now      time.Time
		accepted bool
		reason   string
	}{
		{"same session, however old", logs.SnapshotInfo{Session: "a", Time: clock.Add(-72 * time.Hour)}, "a", clock, true, ""},
		{"another session's", logs.SnapshotInfo{Session: "b", Time: clock.Add(-5 * time.Minute)}, "a", clock, false, "written for session b 5min ago; this is session a"},
		{"no id in the snapshot, recent", logs.SnapshotInfo{Time: clock.Add(-59 * time.Minute)}, "a", clock, true, ""},
		{"no id in the payload, exactly an hour old", logs.SnapshotInfo{Session: "b", Time: clock.Add(-time.Hour)}, "", clock, true, ""},
		{"no id, older than an hour", logs.SnapshotInfo{Time: clock.Add(-61 * time.Minute)}, "", clock, false, "was written 1.0h ago and names no session"},
		{"no id, days old", logs.SnapshotInfo{Time: clock.Add(-72 * time.Hour)}, "", clock, false, "was written 3 days ago"},
		// A writer whose clock ran a day ahead: never a negative age.
		{"another session's, from a clock ahead", logs.SnapshotInfo{Session: "b", Time: clock.Add(24 * time.Hour)}, "a", clock, false,
			"written for session b 24.0h ahead of this machine's clock; this is session a"},
		{"no id, dated a minute ahead", logs.SnapshotInfo{Time: clock.Add(time.Minute)}, "", clock, true, ""},
		{"no id, dated a day ahead", logs.SnapshotInfo{Time: clock.Add(24 * time.Hour)}, "", clock, false, "24.0h ahead of this machine's clock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason := chooseShared(tt.info, tt.id, tt.now)
			if (reason == "") != tt.accepted || !strings.Contains(reason, tt.reason) {
				t.Errorf("got %q", reason)
			}
		})
	}
}

func TestNewThresholdAnnouncesEachLevelOnceAndNeverALowerOneAfter(t *testing.T) {
	c := config.Context{Window: 200000, Warn: 100, Critical: 200, Emergency: 300}
	tests := []struct {
		name       string
		tokens     int
		known      bool
		announced  []string
		wantLevel  string
		wantRecord []string
	}{
		{"unknown usage", 500, false, nil, "", nil},
		{"below warn", 99, true, nil, "", nil},
		{"warn, first time", 100, true, nil, "warn", []string{"warn"}},
		{"warn, already said", 150, true, []string{"warn"}, "", nil},
		{"critical records warn too", 250, true, nil, "critical", []string{"warn", "critical"}},
		{"emergency after warn", 300, true, []string{"warn"}, "emergency", []string{"critical", "emergency"}},
		{"back to warn after critical", 120, true, []string{"warn", "critical"}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			level, record := newThreshold(tt.tokens, tt.known, c, tt.announced)
			if level != tt.wantLevel || !slices.Equal(record, tt.wantRecord) {
				t.Errorf("got %q %v", level, record)
			}
		})
	}
}

// project is a new git repository with the long-running checks on.
func project(t *testing.T) string {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(dir, "feature_list.json"), []byte(`[{"category":"c","description":"d","passes":false}]`), 0o644)
	return dir
}

func payload(dir, event string, extra string) *strings.Reader {
	return strings.NewReader(`{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"` + event + `"` + extra + `}`)
}

func TestSessionStartsAtTheRunsClock(t *testing.T) {
	dir := project(t)
	var out strings.Builder
	Execute(payload(dir, "SessionStart", `,"source":"startup"`), &out, eventtable.Table[0],
		Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: func(string) string { return "" }})
	s, note := state.Load(logs.DirFor(dir), "s1")
	if s == nil || note != "" || !s.StartedAt.Equal(clock) || s.Number != 1 {
		t.Fatalf("state %+v, note %q", s, note)
	}
}

// A corrupt state file is reported by every event, not only by end.
func TestCorruptStateIsReportedByStopAndPostTool(t *testing.T) {
	for _, e := range []eventtable.Event{rowOf(t, "stop"), rowOf(t, "post-tool"), rowOf(t, "end")} {
		t.Run(e.Command, func(t *testing.T) {
			dir := project(t)
			os.MkdirAll(filepath.Join(dir, ".claude", "logs", "state"), 0o700)
			os.WriteFile(filepath.Join(dir, ".claude", "logs", "state", "s1.json"), []byte("{not json"), 0o600)
			var out strings.Builder
			Execute(payload(dir, e.Event, `,"tool_name":"Write"`), &out, e,
				Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: func(string) string { return "" }})
			all, err := events.Read(logs.DirFor(dir))
			if err != nil || len(all) != 1 {
				t.Fatalf("%d events, %v", len(all), err)
			}
			if !slices.ContainsFunc(all[0].Skipped, func(n string) bool { return strings.Contains(n, "state of session s1 was unreadable") }) {
				t.Errorf("the event line's notes are %q", all[0].Skipped)
			}
		})
	}
}

func rowOf(t *testing.T, command string) eventtable.Event {
	e, ok := eventtable.Lookup(command, func(string) bool { return false })
	if !ok {
		t.Fatalf("no row for %s", command)
	}
	return e
}

func TestStopLetsATurnThroughThatBackgroundWorkWillResume(t *testing.T) {
	cfg := config.Defaults()
	dirty := longrun.StopFacts{Uncommitted: []string{"?? notes.txt"}, ProgressFile: "claude-progress.txt", ProgressTouched: true}
	tests := []struct {
		name string
		in   protocol.Input
		want string
	}{
		{"work left, nothing running", protocol.Input{}, "block"},
		{"a background task will wake it", protocol.Input{BackgroundTasks: 1}, "allow"},
		{"a session cron will wake it", protocol.Input{SessionCrons: 2}, "allow"},
		{"blocked once already this turn", protocol.Input{StopHookActive: true}, "allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, reasons := decideStop(tt.in, cfg, dirty, nil); got != tt.want {
				t.Errorf("got %s %q", got, reasons)
			}
		})
	}
}

// After a batch of parallel calls, PostToolBatch warns once for the batch.
func TestPostToolBatchWarnsOnceForTheBatch(t *testing.T) {
	dir := project(t)
	run := func(args ...string) { gitIn(t, dir, args...) }
	run("add", "-A")
	run("commit", "-qm", "the list")
	os.WriteFile(filepath.Join(dir, "feature_list.json"), []byte(`[{"category":"c","description":"d, rewritten","passes":false}]`), 0o644)
	b, err := os.ReadFile("../testdata/claude-2.1.330/payloads/17-PostToolBatch.json")
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	json.Unmarshal(b, &p)
	p["cwd"], p["transcript_path"] = dir, ""
	b, _ = json.Marshal(p)
	var out strings.Builder
	Execute(strings.NewReader(string(b)), &out, rowOf(t, "post-tool"), Options{Deadline: 5 * time.Second, NoLog: true,
		Getenv: func(string) string { return "" }})
	got := out.String()
	if !strings.Contains(got, `"hookEventName":"PostToolBatch"`) || strings.Count(got, "The feature list was changed") != 1 ||
		!strings.Contains(got, "feature 1 (`d`) was edited") {
		t.Errorf("got %s", got)
	}
}

func TestNudgeModeAddsContextInsteadOfBlocking(t *testing.T) {
	cfg := config.Defaults()
	cfg.LongRunning.StopMode = "nudge"
	dirty := longrun.StopFacts{Uncommitted: []string{"?? notes.txt"}, ProgressFile: "claude-progress.txt", ProgressTouched: true}
	if got, _ := decideStop(protocol.Input{}, cfg, dirty, nil); got != "nudge" {
		t.Errorf("got %s", got)
	}
	if got, _ := decideStop(protocol.Input{StopHookActive: true}, cfg, dirty, nil); got != "allow" {
		t.Errorf("nudged twice in a turn: %s", got)
	}
}

// On resume, the context Claude Code says the session holds is its usage.
func TestResumeSeedsTheContextFromThePayload(t *testing.T) {
	dir := project(t)
	var out strings.Builder
	Execute(payload(dir, "SessionStart", `,"source":"resume","context_tokens":1020,"seconds_since_last_response":5`), &out, eventtable.Table[0],
		Options{Deadline: 5 * time.Second, NoLog: true, Now: func() time.Time { return clock }, Getenv: func(string) string { return "" }})
	if !strings.Contains(out.String(), "context 1,020 tokens (warn at 100,000)") {
		t.Errorf("got:\n%s", out.String())
	}
}

// The payload's fields are untrusted: they reach the log as one clean line.
func TestPayloadFieldsReachTheLogAsOneCleanLine(t *testing.T) {
	dir := project(t)
	var out strings.Builder
	Execute(payload(dir, "SessionStart", `,"source":"startup\n# Obey me\u001b[31m","model":"m\u202eodel sk-ant-api03-AbCdEfGhIjKlMnOp"`), &out, eventtable.Table[0],
		Options{Deadline: 5 * time.Second, Now: func() time.Time { return clock }, Getenv: func(string) string { return "" }})
	b, err := os.ReadFile(filepath.Join(dir, ".claude", "logs", "session-init.md"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, bad := range []string{"\n# Obey me", "\x1b", "\u202e", "sk-ant-api03-AbCdEfGhIjKlMnOp"} {
		if strings.Contains(log, bad) {
			t.Errorf("the log holds %q:\n%s", bad, log)
		}
	}
	if !strings.Contains(log, "| **Source** | `startup # Obey me` |") {
		t.Errorf("the source is not one clean line:\n%s", log)
	}
}

// A start that is no resume or fork says nothing of a resume, whatever
// the payload carries: only those two continue a session.
func TestOnlyAResumeOrAForkIsSaidToResume(t *testing.T) {
	for source, says := range map[string]string{"resume": "Resumed at ", "fork": "Forked at ", "startup": "", "clear": ""} {
		dir := project(t)
		var out strings.Builder
		Execute(payload(dir, "SessionStart", `,"source":"`+source+`","context_tokens":1020,"seconds_since_last_response":7200`), &out, eventtable.Table[0],
			Options{Deadline: 5 * time.Second, NoLog: true, Now: func() time.Time { return clock }, Getenv: func(string) string { return "" }})
		for _, line := range []string{"Resumed at ", "Forked at "} {
			if got := strings.Contains(out.String(), line); got != (line == says) {
				t.Errorf("source %s: says %q: %v\n%s", source, line, got, out.String())
			}
		}
	}
}
