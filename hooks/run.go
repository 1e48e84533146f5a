package hooks

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/transcript"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/hooks/state"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
)

// Options are what the command line and the process give a hook run.
type Options struct {
	Deadline   time.Duration
	Notes      []string // from parsing the flags
	ConfigPath string   // --config
	DryRun     bool     // --dry-run
	NoLog      bool     // --no-log
	JSON       bool     // --format json
	Version    string
	// Agent is the adapter of the client that runs the hook (--agent).
	Agent protocol.Agent
	// Now and Getenv are the clock and the environment: every rule about
	// time or the environment reads them, so tests can fix both.
	Now    func() time.Time
	Getenv func(string) string
}

// Run is what every handler starts from: the payload, the project, the
// shared repository, the configuration, the clock, and the deadline (in
// Ctx). A handler gathers facts from it, decides, renders, and writes once
// through it.
type Run struct {
	Ctx     context.Context
	hard    context.Context // ends at phases.write: the bound of every file system call
	In      protocol.Input
	Agent   protocol.Agent // whose session file In.TranscriptPath is
	Project string
	Git     *gitdiag.Shared // the project's repository, read once for the whole run
	Logs    logs.Dir
	Cfg     config.Config
	Start   time.Time
	Now     func() time.Time
	Getenv  func(string) string
	NoLog   bool // --no-log: write nothing
	JSON    bool // --format json: print the facts
	Version string

	notes    []string       // what was skipped; every one reaches the output or the log
	skipNote int            // the index in notes of the deadline's list, once there is one
	ev       events.Event   // what this run records; filled as it goes
	sess     *state.Session // this session's state, once read
	// sessLoaded is set once the state was looked for, found or not.
	sessLoaded bool
	stateDirty bool             // the state changed and is not written yet
	usage      transcript.Usage // the transcript's latest usage, once read
	usageRead  bool
	lastRead   *transcriptRead // the last readTranscript, kept for a second ask
	tracked    *bool           // git tracks files in the log directory, once asked
	// unlockState lets go of the session's state, locked from its load
	// to its write.
	unlockState func()
}

// Execute runs one event as a hook: it always returns normally (the
// caller exits 0), prints at most the agent's limit, nothing on stderr,
// and answers by the deadline with whatever it has.
func Execute(stdin io.Reader, stdout io.Writer, e eventtable.Event, opt Options) {
	execute(stdin, stdout, e, handlerOf(e), opt)
}

// execute is Execute with the row's handler given (tests give their own).
func execute(stdin io.Reader, stdout io.Writer, e eventtable.Event, handle func(*Run) protocol.Reply, opt Options) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Agent.Read == nil {
		opt.Agent = defaultAgent
	}
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	start := opt.Now()
	began := time.Now() // the deadline's clock is the real one, whatever Now says
	ph := phasesOf(opt.Deadline)
	ctx, cancel := context.WithTimeout(context.Background(), ph.gather)
	defer cancel()
	hard, cancelHard := context.WithTimeout(context.Background(), ph.write)
	defer cancelHard()
	in, inputNotes := readInput(stdin, stdinWait(opt.Deadline), opt.Agent, e, opt.Getenv)
	r := &Run{Ctx: ctx, hard: hard, skipNote: -1, In: in, Start: start, Now: opt.Now, Getenv: opt.Getenv, NoLog: opt.NoLog, JSON: opt.JSON,
		Version: opt.Version, Agent: opt.Agent, notes: append(append([]string(nil), opt.Notes...), inputNotes...)}
	r.ev = r.newEvent(e.Command)
	// git is read from where the session runs (status paths relative to
	// it, as git prints them there); the logs, the state and the
	// configuration are the worktree's.
	dir := projectDir(in, opt.Agent, opt.Getenv)
	r.Project = worktreeTop(dir)
	r.Git = gitdiag.NewShared(dir)
	if !r.NoLog {
		r.Git.CacheDir = cacheDir(opt.Getenv)
	}
	defer r.Git.Close()
	r.Logs = logs.DirFor(r.Project)
	// Asked only when the log directory must be made: most runs find it.
	r.Logs.NoCreate = sync.OnceValue(r.noProject)

	// Everything that touches the disk runs inside the deadline: the
	// configuration, the handler, the state.
	done := make(chan protocol.Reply, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				r.ev.Errors = append(r.ev.Errors, events.Error{Type: "panic", Message: fmt.Sprint(v)})
				done <- r.failure(fmt.Sprintf("session-hooks: internal error in %s (%v); nothing was injected. Please report this.\n", e.Command, v))
			}
		}()
		cfg, cfgNotes, ok := within2(r, "reading the configuration", func() (config.Config, []string) {
			return config.Load(r.Project, opt.ConfigPath, opt.Getenv)
		})
		if !ok {
			cfg = config.Defaults()
		}
		r.Cfg = cfg
		r.Cfg.DryRun = r.Cfg.DryRun || opt.DryRun
		r.notes = append(r.notes, cfgNotes...)
		out := handle(r)
		r.writeState() // the last write but the event line, inside the deadline
		done <- out
	}()
	var reply protocol.Reply
	var ev events.Event
	logDir := logs.DirFor(r.Project)
	select {
	case reply = <-done:
		ev = r.ev // the handler is done with it
		ev.Skipped = r.notes
		logDir = r.Logs
	case <-time.After(ph.handler - time.Since(began)):
		logDir.NoCreate = func() string { return "the run did not finish in time to know whether this is a project" }
		reply = r.failure(fmt.Sprintf("session-hooks: %s did not finish within its %s deadline; nothing was injected.\n", e.Command, opt.Deadline))
		ev = r.newEvent(e.Command) // the handler may still be writing r.ev
		ev.Errors = []events.Error{{Type: "deadline", Message: "did not finish within " + opt.Deadline.String()}}
	}
	printed, cut := encode(r.agent(), cmp.Or(reply.Event, r.In.Event), reply)
	ev.Truncated = ev.Truncated || cut
	ev.Bytes, ev.DurationMS = len(printed), events.MS(time.Since(began))
	if r.In.Event != "" && reachesModel(cmp.Or(e.Event, r.In.Event)) && !r.JSON {
		ev.Injected = printed // a person can see what the model was given
	}
	io.WriteString(stdout, printed)
	if !r.NoLog {
		// The record must never cost the output, nor the deadline: on a
		// disk that stalls, it is given what is left of the run's time.
		appended := make(chan events.Position, 1)
		write := appendEvent
		go func() {
			if at, err := write(logDir, ev); err == nil {
				appended <- at
			}
			close(appended)
		}()
		select {
		case at, ok := <-appended:
			if ok {
				exportEvents(logDir, at, opt, began)
			}
		case <-time.After(max(opt.Deadline-time.Since(began), minAppendWait)):
		}
	}
}

// failure is what a run that failed or missed its deadline answers: the
// message, or for --format json an object of the schema saying it.
func (r *Run) failure(msg string) protocol.Reply {
	if r.JSON {
		return protocol.Facts(failureJSON(strings.TrimSpace(msg)))
	}
	return protocol.Say(msg)
}

// encode is the reply as the agent's stdout carries it: its text cleaned
// by the one policy first, then cut until the encoded reply is within the
// agent's limit (a JSON reply is cut inside its text, so it stays valid);
// cut says whether text was cut. --format json's facts are cleaned string
// by string, and never cut.
func encode(a protocol.Agent, event string, reply protocol.Reply) (printed string, cut bool) {
	if reply.Data {
		return safeOutput(reply.Text), false
	}
	build := func(t string) string {
		r := reply
		r.Text = t
		return safeOutput(a.EncodeReply(event, r))
	}
	return fitText(build, a.Limit(), sanitize.Clean(reply.Text))
}

// readInput reads the payload in the agent's shape; the event is the
// agent's name for the row when the payload does not say.
func readInput(stdin io.Reader, wait time.Duration, a protocol.Agent, e eventtable.Event, getenv func(string) string) (protocol.Input, []string) {
	b, notes := protocol.ReadPayload(stdin, wait)
	in, more := a.Parse(b, getenv)
	if events := a.Events[strings.Join(e.Args(), " ")]; in.Event == "" && len(events) > 0 {
		in.Event = events[0]
	}
	return in, append(notes, more...)
}

// cacheDir is where a run keeps what it may use again (the diff stat
// against the upstream): the user's cache directory, never the
// repository's, whose files are not to be trusted; "" when there is none.
func cacheDir(getenv func(string) string) string {
	dir := getenv("XDG_CACHE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = base
	}
	return filepath.Join(dir, "session-hooks")
}

// reachesModel says whether a client puts a hook's output of event in
// front of a model: SessionStart's and the prompt-time hooks' in the
// conversation, PreCompact's in the compaction request, a Stop's or a tool
// hook's reply in the turn. SessionEnd's and PostCompact's go nowhere.
func reachesModel(event string) bool {
	switch event {
	case protocol.SessionEnd, protocol.PostCompact, "":
		return false
	}
	return true
}

// failureJSON is what --format json prints when the run missed its
// deadline or failed: an object of the schema with the note.
func failureJSON(note string) string {
	b, _ := json.Marshal(struct {
		SchemaVersion int      `json:"schema_version"`
		Notes         []string `json:"notes"`
	}{facts.SchemaVersion, []string{note}})
	return string(b) + "\n"
}

// fitText is the reply build makes of text, text cut until the reply is
// within limit (JSON's escapes make a reply longer than its text); cut
// says whether it was.
func fitText(build func(string) string, limit int, text string) (reply string, cut bool) {
	reply = build(text)
	for range 8 {
		over := logs.Len(reply) - limit
		if over <= 0 {
			return reply, cut
		}
		text, cut = logs.Cut(text, max(logs.Len(text)-over, 0)), true
		reply = build(text)
	}
	return build(""), true
}

// safeOutput is the one way to stdout: whatever the handler rendered, and
// from whatever it was gathered (git, the transcript, the repository's
// files, the logs), the model reads it only as the sanitising and
// redaction policy leaves it. A JSON reply is cleaned string by string,
// so it stays JSON.
func safeOutput(out string) string {
	if protocol.IsJSON(out) {
		return string(sanitize.JSON([]byte(out)))
	}
	return sanitize.Clean(out)
}

// appendEvent writes the event line; tests replace it to stall as a dead
// disk does.
var appendEvent = events.AppendAt

// minAppendWait is the least the event line is waited for, even when the
// handler used all its time.
const minAppendWait = 20 * time.Millisecond

func (r *Run) newEvent(sub string) events.Event {
	in := r.In
	return events.Event{SchemaVersion: facts.SchemaVersion, Time: r.Start.UTC(), Session: field(in.SessionID), Event: field(in.Event),
		Subcommand: sub, Client: r.Agent.Name, Source: field(in.Source), Trigger: field(in.Trigger), Reason: field(in.Reason), Model: field(in.Model), Version: r.Version}
}

// field is a payload's field as the event line records it: the client's
// values are short names and ids, and a megabyte in one must not be
// written at every run.
func field(s string) string {
	if len(s) <= maxField {
		return s
	}
	// Redacted before it is cut (a token cut through is a part no
	// pattern knows), on a prefix: a megabyte is not cleaned whole.
	prefix := min(4*maxField, len(s))
	for back := 0; back < utf8.UTFMax && prefix < len(s) && !utf8.RuneStart(s[prefix]); back++ {
		prefix--
	}
	s, more := sanitize.Clean(s[:prefix]), prefix < len(s)
	if len(s) <= maxField {
		if more {
			return s + "…"
		}
		return s
	}
	cut := maxField
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// maxField bounds each payload field in the event line, in bytes.
const maxField = 256

// note records what was skipped and why: it reaches the output and the
// event line.
// The same note twice (two writes failing alike) is said once.
func (r *Run) note(n ...string) {
	for _, x := range n {
		if !slices.Contains(r.notes, x) {
			r.notes = append(r.notes, x)
		}
	}
}

// fail records an error of the run in the event line.
func (r *Run) fail(kind, msg string) {
	r.ev.Errors = append(r.ev.Errors, events.Error{Type: kind, Message: msg})
}

// stdinWait is how long to wait for the payload: Claude Code writes it at
// once, so a stdin that stays open is not one to wait on for long.
func stdinWait(deadline time.Duration) time.Duration {
	return min(deadline/4, 2*time.Second)
}

// noProject says why no log directory may be created for this run, or
// "": a hook run with the cwd / or /dev must not leave /.claude/logs. Logs
// go in a git work tree, or in the project the client names.
func (r *Run) noProject() string {
	env := r.agent().ProjectDirEnv
	if d := r.Getenv(env); env != "" && d != "" && filepath.Clean(d) == filepath.Clean(r.Project) {
		return ""
	}
	inTree, _ := gitdiag.Within(r.Ctx, r.Git, func(repo *gitdiag.Repo) (bool, error) {
		return repo.Root != "" && !repo.Bare, nil
	})
	if inTree {
		return ""
	}
	if env == "" {
		return r.Project + " is not in a git work tree"
	}
	return r.Project + " is not in a git work tree, nor the project " + r.agent().Label + " names ($" + env + ")"
}

// projectDir is resolved as the Node script did: the payload's cwd, else
// the directory the client names, else the process's directory.
func projectDir(in protocol.Input, a protocol.Agent, getenv func(string) string) string {
	if in.Cwd != "" {
		return in.Cwd
	}
	if d := getenv(a.ProjectDirEnv); a.ProjectDirEnv != "" && d != "" {
		return d
	}
	d, err := os.Getwd()
	if err != nil {
		return "."
	}
	return d
}

// worktreeTop is the top of the git work tree dir is in, else dir: a
// session started in a subdirectory keeps its logs, handoff and state
// with the sessions started at the top, which hand over to each other.
// The nearest .git (a directory, or a linked worktree's or submodule's
// file) marks it; the walk is a stat per level.
func worktreeTop(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// runFacts says which run the facts are from.
func (r *Run) runFacts(sub string) facts.Run {
	in := r.In
	return facts.Run{Subcommand: sub, Session: in.SessionID, Event: in.Event, Source: in.Source, Trigger: in.Trigger,
		Reason: in.Reason, Model: in.Model, Cwd: in.Cwd, Time: r.Start.UTC().Format(logs.TimeFormat)}
}

// writeLog writes a log file, and turns a failure into a note.
func (r *Run) writeLog(name, content string) []string {
	return r.writeLogs(r.plainLog(name, content))
}

// logWrite is one log file to write, and how.
type logWrite struct {
	name, content string
	write         func(name string, content []byte) error
}

// plainLog and sealedLog are the two ways a log is written: for people,
// and sealed for a later run to read back (package seal).
func (r *Run) plainLog(name, content string) logWrite { return logWrite{name, content, r.Logs.Write} }

func (r *Run) sealedLog(name, content string, durable bool) logWrite {
	return logWrite{name, content, func(name string, b []byte) error { return r.Logs.WriteSealed(name, b, durable) }}
}

// writeLogs writes several files side by side, and turns each failure
// into a note, in their order. One after another, each waited for the one
// before: replacing a file costs ext4 the start of the new one's writeback
// (0.1 ms), and end writes three.
func (r *Run) writeLogs(ws ...logWrite) []string {
	if r.NoLog || len(ws) == 0 {
		return nil
	}
	errs, ok := bounded(r, func() []error {
		errs := make([]error, len(ws))
		var wg sync.WaitGroup
		// The first on this goroutine: most runs write one file, and a
		// goroutine more is a thread more to start in a fresh process.
		for i, w := range ws[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i+1] = w.write(w.name, []byte(w.content))
			}()
		}
		errs[0] = ws[0].write(ws[0].name, []byte(ws[0].content))
		wg.Wait()
		return errs
	})
	var notes []string
	for i, w := range ws {
		switch {
		case !ok:
			notes = append(notes, "log not written by the hook's deadline: "+w.name)
		case errs[i] != nil:
			r.fail("log", firstLine(errs[i].Error()))
			notes = append(notes, "log not written: "+firstLine(errs[i].Error()))
		}
	}
	return notes
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
