package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/config"
	"github.com/session-hooks/session-hooks/events"
	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/state"
)

// outputBudget is the most a hook prints: Claude Code replaces anything
// over 10,000 characters with a 2 KB preview, and keeps some margin.
const outputBudget = 9500

// hookRun is what every event handler starts from: the input, where the
// project is, and the deadline it must answer within.
type hookRun struct {
	ctx     context.Context
	in      Input
	project string
	git     *gitdiag.Shared // the project's repository, read once for the whole run
	logs    logs.Dir
	cfg     config.Config
	notes   []string // what was skipped before the handler ran
	start   time.Time
	noLog   bool           // --no-log: write no log file
	json    bool           // --format json: print the facts as one JSON object
	ev      events.Event   // what this run records; filled as it goes
	sess    *state.Session // this session's state, once read
}

// hookOptions are what the command line sets for every hook.
type hookOptions struct {
	deadline   time.Duration
	notes      []string // from parsing the flags
	configPath string   // --config
	dryRun     bool     // --dry-run
	noLog      bool     // --no-log
	json       bool     // --format json
}

// handler gathers facts, decides, renders and writes; it returns stdout.
type handler func(h *hookRun) string

// runHook runs one event as a hook: it always ends normally (the caller
// exits 0), prints at most outputBudget characters, nothing on stderr, and
// answers by the deadline with whatever it has.
func runHook(stdin io.Reader, stdout io.Writer, event string, opt hookOptions, handle handler) {
	start := time.Now()
	deadline := opt.deadline
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	in, inputNotes := readInput(stdin, stdinWait(deadline))
	h := &hookRun{ctx: ctx, in: in, start: start, notes: append(opt.notes, inputNotes...), noLog: opt.noLog, json: opt.json}
	h.ev = newEvent(event, in, start)
	h.project = projectDir(in)
	h.git = gitdiag.NewShared(h.project)
	defer h.git.Close()
	h.logs = logs.DirFor(h.project)
	var cfgNotes []string
	h.cfg, cfgNotes = config.Load(h.project, opt.configPath, os.Getenv)
	h.cfg.DryRun = h.cfg.DryRun || opt.dryRun
	h.notes = append(h.notes, cfgNotes...)

	done := make(chan string, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				h.ev.Errors = append(h.ev.Errors, events.Error{Type: "panic", Message: fmt.Sprint(v)})
				done <- fmt.Sprintf("session-hooks: internal error in %s (%v); nothing was injected. Please report this.\n", event, v)
			}
		}()
		done <- handle(h)
	}()
	var out string
	var ev events.Event
	select {
	case out = <-done:
		ev = h.ev // the handler is done with it
		ev.Skipped = h.notes
	case <-time.After(deadline + deadline/10):
		out = fmt.Sprintf("session-hooks: %s did not finish within its %s deadline; nothing was injected.\n", event, deadline)
		ev = newEvent(event, in, start) // the handler may still be writing h.ev
		ev.Errors = []events.Error{{Type: "deadline", Message: "did not finish within " + deadline.String()}}
	}
	printed := out
	if !h.json && !strings.HasPrefix(out, "{") {
		// Cut text only: stop's and post-tool's JSON replies are short by
		// construction, and a cut one would be invalid JSON.
		printed = logs.Cut(out, outputBudget)
	}
	ev.Truncated = ev.Truncated || len(printed) < len(out)
	ev.Bytes, ev.DurationMS = len(printed), events.MS(time.Since(start))
	if !h.noLog {
		events.Append(h.logs, ev) // the record must never cost the output
	}
	io.WriteString(stdout, printed)
}

func newEvent(sub string, in Input, start time.Time) events.Event {
	return events.Event{Time: start.UTC(), Session: in.SessionID, Event: in.Event, Subcommand: sub, Source: in.Source,
		Trigger: in.Trigger, Reason: in.Reason, Model: in.Model, Version: version()}
}

// record notes the probes' times and failures, and the git engine.
func (h *hookRun) record(results []gitdiag.Result, engine string) {
	h.ev.Engine = engine
	for _, r := range results {
		h.ev.Probes = append(h.ev.Probes, events.Probe{Command: r.Command, DurationMS: events.MS(r.Duration), OK: r.Err == nil})
		if r.Err != nil {
			h.ev.Errors = append(h.ev.Errors, events.Error{Type: "probe", Message: r.Command + ": " + firstLine(r.Err.Error())})
		}
	}
}

// stdinWait is how long to wait for the payload: Claude Code writes it at
// once, so a stdin that stays open is not one to wait on for long.
func stdinWait(deadline time.Duration) time.Duration {
	return min(deadline/4, 2*time.Second)
}

// projectDir is resolved as the Node script did: the payload's cwd, else
// $CLAUDE_PROJECT_DIR, else the process's directory.
func projectDir(in Input) string {
	if in.Cwd != "" {
		return in.Cwd
	}
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	d, err := os.Getwd()
	if err != nil {
		return "."
	}
	return d
}

// meta is the metadata table of the Node logs, with Go and our version in
// place of Node's version, and how git was read.
func (h *hookRun) meta(engine string) []logs.Field {
	host, _ := os.Hostname()
	env := "Local"
	if os.Getenv("CLAUDE_CODE_REMOTE") == "true" {
		env = "Cloud"
	}
	fields := []logs.Field{
		{Name: "Timestamp", Value: h.start.UTC().Format(logs.TimeFormat)},
		{Name: "Platform", Value: platform()},
		{Name: "Go", Value: runtime.Version()},
		{Name: "Version", Value: version()},
		{Name: "Git engine", Value: orNone(engine)},
		{Name: "Hostname", Value: host},
		{Name: "Environment", Value: env, Plain: true},
	}
	for _, f := range []logs.Field{{Name: "Directory", Value: h.in.Cwd}, {Name: "Session", Value: h.in.SessionID},
		{Name: "Source", Value: h.in.Source}, {Name: "Model", Value: h.in.Model}, {Name: "Reason", Value: h.in.Reason}} {
		if f.Value != "" {
			fields = append(fields, f)
		}
	}
	return fields
}

// platform names the OS and architecture as Node's process.platform and
// process.arch do, which the Node logs showed.
func platform() string {
	arch := map[string]string{"amd64": "x64", "386": "ia32"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	osName := runtime.GOOS
	if osName == "windows" {
		osName = "win32"
	}
	return osName + " " + arch
}

// commands turns probe results into the rendered list.
func commands(results []gitdiag.Result) []logs.Command {
	out := make([]logs.Command, len(results))
	for i, r := range results {
		out[i] = logs.Command{Command: r.Command, Output: r.Lines, Note: r.Note, Duration: r.Duration}
		if r.Err != nil {
			out[i].Err = firstLine(r.Err.Error())
		}
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// writeLog writes a log file, and turns a failure into a note for stdout.
func (h *hookRun) writeLog(name, content string) []string {
	return h.writeLogWith(h.logs.Write, name, content)
}

func (h *hookRun) writeLogWith(write func(string, []byte) error, name, content string) []string {
	if h.noLog {
		return nil
	}
	if err := write(name, []byte(content)); err != nil {
		h.ev.Errors = append(h.ev.Errors, events.Error{Type: "log", Message: firstLine(err.Error())})
		return []string{"log not written: " + firstLine(err.Error())}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none (repository not opened)"
	}
	return s
}

// toJSON is the output of --format json: the same facts, for scripts.
func toJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprintf(`{"error": %q}`, err.Error())
	}
	return string(b) + "\n"
}
