package hooks

import (
	"cmp"
	"os"
	"runtime"
	"time"

	"github.com/session-hooks/session-hooks/internal/sanitize"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/hooks/longrun"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/logs"
)

// payloadFieldRunes bounds a payload field shown in a log: an id or a
// path longer than this is cut, so it cannot crowd out what matters.
const payloadFieldRunes = 200

// snapshotShare is the most of the output the re-injected snapshot takes;
// the init part keeps the rest.
const snapshotShare = 6000

// handleInit is SessionStart startup, resume, clear and fork: what the
// repository looks like now. For a client with no event after a
// compaction, a start that finds one not yet recovered gives the
// recovery instead: the context it starts is the compacted one.
func handleInit(r *Run) string {
	if r.deferStart() {
		return ""
	}
	// A client that keeps only the latest start's block (Copilot CLI)
	// would drop a recovery given there at the next resume: its prompt
	// and tool-result hooks give it, into the conversation's history.
	if !r.agent().StartReplacesStart {
		if c := r.pendingCompaction(); c != "" {
			return lateRecovery(r, c)
		}
	}
	return initStory(r, false)
}

// handleRecovery is SessionStart compact: the same, and the snapshot taken
// just before the compaction. For a client with no event after a
// compaction, it runs before every prompt (Gemini CLI's BeforeAgent) and
// gives the recovery once per compaction, on the first prompt after it.
func handleRecovery(r *Run) string {
	if r.agent().LateRecovery {
		r.notePrompt()
		deferred := r.takeDeferredStart()
		if c := r.pendingCompaction(); c != "" {
			return lateRecovery(r, c)
		}
		if deferred {
			return initStory(r, false)
		}
		return ""
	}
	return initStory(r, true)
}

// deferStart keeps a start's context for the run's first prompt, for a
// client that would lose the prompt with it (protocol.Agent.StartOnPrompt):
// it says whether it did. Without a session's state, the start gives it.
func (r *Run) deferStart() bool {
	s := r.session()
	if !r.agent().StartOnPrompt || s == nil || r.NoLog {
		return false
	}
	s.DeferredStart = cmp.Or(r.In.Source, protocol.SourceStartup)
	r.saveState(s)
	return true
}

// takeDeferredStart takes the start whose context waits for this prompt:
// the run goes on as that start, its source restored. It says whether
// there was one.
func (r *Run) takeDeferredStart() bool {
	s := r.session()
	if s == nil || s.DeferredStart == "" {
		return false
	}
	r.In.Source, s.DeferredStart = s.DeferredStart, ""
	r.saveState(s)
	return true
}

func lateRecovery(r *Run, compaction string) string {
	if !r.agent().CompactHookCompacts {
		// The first this run knows of the compaction: no hook marked it.
		r.ev.Compacted = ptrTrue()
	}
	out := initStory(r, true)
	r.recovered(compaction)
	return out
}

func initStory(r *Run, recovery bool) string {
	f := gatherInit(r, recovery)
	meta := r.meta(f.Git.Engine)
	shown, full := renderInit(f, meta, r.Cfg, recovery)
	notes := r.writeLog(logs.InitLog, full.Render(logs.LogLimits))
	f.Notes = append(f.Notes, notes...)
	shown.Notes = append(shown.Notes, notes...)
	if r.JSON {
		return facts.JSON(f)
	}
	if r.Cfg.Output == "full" {
		return logs.Fit(shown.Render, r.budget())
	}
	out := renderBriefOutput(f, shown, r.Now(), r.agent())
	if recovery {
		held := r.survivingInjections(f.Recovery)
		out = withoutHeld(out, held)
		r.newContext(out, held)
		return out
	}
	return r.injectOnlyNew(out)
}

// renderBriefOutput is the brief, then the long-running section and the
// recovery fitted to their shares, then the notes.
func renderBriefOutput(f facts.Init, shown logs.Report, now time.Time, a protocol.Agent) string {
	out := renderBriefFor(f, now, a) + shown.Extra
	for _, n := range shown.Notes {
		out += "**Note:** " + n + "\n\n"
	}
	return logs.Cut(out, a.Limit())
}

func gatherInit(r *Run, recovery bool) facts.Init {
	probes := []gitdiag.Probe{gitdiag.Branch, gitdiag.Log(5, true), gitdiag.StatusShort}
	if !recovery {
		probes = append(probes, gitdiag.DiffStatUpstream)
	}
	f := facts.Init{SchemaVersion: facts.SchemaVersion, Run: r.runFacts("init")}
	f.Git = r.gitFacts(probes)
	// The recovery says where the branch stands too: "no upstream" on a
	// branch 2 ahead and 1 behind was false.
	r.upstreamFacts(&f.Git)
	f.Start = r.gatherStart()
	if s := f.Start; s.Handoff != nil && s.HandoffSince != nil {
		s.HandoffSince.NowClean = cleanSince(s.Handoff.Uncommitted, f.Git.Status)
	}
	r.observe(false)
	if recovery {
		rec := r.recoverSnapshot()
		f.Recovery = &rec
		if rec.Found && !r.JSON {
			r.pendRecovery(rec.Nonce)
		}
		f.LongRunning = r.longRunning(lrWork)
		if lr := f.LongRunning; lr != nil && rec.Facts != nil {
			// The recovery lists the files written since the compaction:
			// the same file said twice reads as two facts.
			lr.SessionFiles = without(lr.SessionFiles, rec.Facts.FilesTouched)
		}
	} else {
		f.LongRunning = r.longRunning(lrStart)
	}
	f.Notes = append([]string(nil), r.notes...)
	f.DurationMS = float64(time.Since(r.Start).Microseconds()) / 1000
	return f
}

// renderInit lays the facts out twice: as shown to the agent (the
// long-running part and the snapshot fitted to their shares) and in full
// for the log.
func renderInit(f facts.Init, meta []logs.Field, cfg config.Config, recovery bool) (shown, full logs.Report) {
	title := "Session Init"
	if recovery {
		title = "Session Init (post-compaction recovery)"
	}
	shown = logs.Report{Title: title, Meta: meta, Notes: f.Notes, Commands: commands(f.Git.Probes),
		Total: time.Duration(f.DurationMS * float64(time.Millisecond))}
	var longRunning string
	if f.LongRunning != nil {
		if recovery {
			longRunning = longrun.WorkSection("## Long-running agent", *f.LongRunning, false)
		} else {
			longRunning = longrun.InitSection(*f.LongRunning)
		}
	}
	full = shown
	full.Extra, shown.Extra = longRunning, logs.FitMarkdown(longRunning, 3000)
	if f.Recovery != nil {
		full.Extra += renderRecovered(*f.Recovery, logs.LogBudget)
		shown.Extra += renderRecovered(*f.Recovery, max(2000, snapshotShare-logs.Len(shown.Extra)))
	}
	return shown, full
}

// commands turns probe facts into the rendered list.
func commands(probes []facts.Probe) []logs.Command {
	out := make([]logs.Command, len(probes))
	for i, p := range probes {
		out[i] = logs.Command{Command: p.Command, Output: p.Output, Note: p.Note, Err: p.Error,
			Duration: time.Duration(p.DurationMS * float64(time.Millisecond)),
			Totals:   p.Command == gitdiag.DiffStatUpstream.Command}
	}
	return out
}

// meta is the metadata table of the Node logs, with Go and our version in
// place of Node's version, and how git was read.
func (r *Run) meta(engine string) []logs.Field {
	host, _ := os.Hostname()
	env := "Local"
	if remote := r.agent().Remote; remote != nil && remote(r.Getenv) {
		env = "Cloud"
	}
	if engine == "" {
		engine = "none (repository not opened)"
	}
	fields := []logs.Field{
		{Name: "Timestamp", Value: r.Start.UTC().Format(logs.TimeFormat)},
		{Name: "Platform", Value: platform()},
		{Name: "Go", Value: runtime.Version()},
		{Name: "Version", Value: r.Version},
		{Name: "Git engine", Value: engine},
		{Name: "Hostname", Value: host},
		{Name: "Environment", Value: env, Plain: true},
	}
	// The payload's fields are untrusted text: one line each, cleaned and
	// shortened, so none can start a heading, close a fence or hide a
	// secret.
	for _, f := range []logs.Field{{Name: "Directory", Value: r.In.Cwd}, {Name: "Session", Value: r.In.SessionID},
		{Name: "Source", Value: r.In.Source}, {Name: "Model", Value: r.In.Model}, {Name: "Reason", Value: r.In.Reason}} {
		if f.Value != "" {
			f.Value = sanitize.Excerpt(f.Value, payloadFieldRunes)
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

// withoutHeld is a recovery without the facts the compaction kept in the
// context (held: their hashes); with none kept, the recovery as it is.
func withoutHeld(out string, held []string) string {
	if len(held) == 0 {
		return out
	}
	out, _ = onlyNew(out, held)
	return out
}

func ptrTrue() *bool { t := true; return &t }
