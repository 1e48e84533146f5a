package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/events"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/facts"
	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
)

// Doctor is what doctor found: every wired command of ours run as Claude
// Code would run it, and the rest of what the hooks need.
type Doctor struct {
	SchemaVersion int         `json:"schema_version"`
	Project       string      `json:"project"`
	Runs          []DoctorRun `json:"runs"`
	LogsDir       string      `json:"logs_dir"`
	LogsError     string      `json:"logs_error"` // "" when writable
	Transcripts   string      `json:"transcripts_dir"`
	TranscriptN   int         `json:"transcripts"`
	GitEngine     string      `json:"git_engine"`
	GitError      string      `json:"git_error"`
	// LastRecovery is what became of the latest recovery injected after a
	// compaction in this project: delivered, cut or missing; "" when none.
	LastRecovery string `json:"last_recovery"`
	Problems     int    `json:"problems"`
}

// DoctorRun is one wired command, run once.
type DoctorRun struct {
	Event      string  `json:"event"`
	Command    string  `json:"command"`
	Result     string  `json:"result"` // ok, fail, slow
	Problem    string  `json:"problem"`
	DurationMS float64 `json:"duration_ms"`
	TimeoutMS  float64 `json:"timeout_ms"` // what Claude Code allows it
}

// RunDoctor runs every wired event of ours against the project with a
// sample payload, as Claude Code would, and checks the logs, the
// transcripts and git. It never blocks a stop or changes the settings.
func RunDoctor(env Env, custom string) Doctor {
	d := Doctor{SchemaVersion: facts.SchemaVersion, Project: env.Dir}
	ran := map[string]bool{}
	for _, sc := range ReadStatus(env, custom).Scopes {
		for _, h := range sc.Hooks {
			if !IsOurs(h.Event, h.Command, custom) || ran[h.Command] {
				continue
			}
			ran[h.Command] = true
			d.Runs = append(d.Runs, runWired(env.Dir, h))
		}
	}
	for _, r := range d.Runs {
		if r.Result != "ok" {
			d.Problems++
		}
	}
	if len(d.Runs) == 0 {
		d.Problems++
	}
	dir := logs.DirFor(env.Dir)
	d.LogsDir = dir.Path
	if err := dir.Write(".doctor-check", []byte("x")); err != nil {
		d.Problems++
		d.LogsError = err.Error()
	} else {
		os.Remove(filepath.Join(dir.Path, ".doctor-check"))
	}
	if config, err := claude.ConfigDir(env.Getenv, env.Home); err == nil {
		d.Transcripts = claude.TranscriptsDir(config, env.Dir)
		entries, _ := os.ReadDir(d.Transcripts)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".jsonl") {
				d.TranscriptN++
			}
		}
	}
	if all, err := events.Read(dir); err == nil {
		for _, e := range all {
			if e.Receipt != nil {
				d.LastRecovery = e.Receipt.Status
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, engine := gitdiag.Run(ctx, env.Dir, []gitdiag.Probe{gitdiag.Branch})
	if res[0].Err != nil {
		d.GitError = res[0].Err.Error()
	} else {
		d.GitEngine = engine
	}
	return d
}

// runWired runs one wired command through /bin/sh, as Claude Code does,
// with a sample payload for its event.
func runWired(project string, h WiredHook) DoctorRun {
	run := DoctorRun{Event: h.Event, Command: h.Command, Result: "ok"}
	limit := 600 * time.Second
	if h.Event == claude.SessionEnd {
		limit = 1500 * time.Millisecond // Claude Code's own budget without a timeout
	}
	if h.Timeout != nil {
		limit = time.Duration(*h.Timeout) * time.Second
	}
	run.TimeoutMS = float64(limit.Milliseconds())
	matcher := h.Matcher
	if e, ok := rowOf(h.Command); ok && e.Matcher != "" {
		matcher = e.Matcher
	}
	b, _ := json.Marshal(claude.SamplePayload(h.Event, matcher, "session-hooks-doctor", project))
	cmd := exec.Command("/bin/sh", "-c", h.Command)
	cmd.Dir, cmd.Stdin = project, bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	run.DurationMS = float64(took.Microseconds()) / 1000
	switch {
	case err != nil:
		run.Result, run.Problem = "fail", err.Error()
	case stderr.Len() > 0:
		line, _, _ := strings.Cut(stderr.String(), "\n")
		run.Result, run.Problem = "fail", "printed on stderr: "+line
	case took > limit:
		run.Result, run.Problem = "slow", fmt.Sprintf("%s, over its %s timeout", logs.Duration(took), limit)
	}
	return run
}

// Text is doctor's report as people read it.
func (d Doctor) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Project: %s\n\n", d.Project)
	for _, r := range d.Runs {
		took := logs.Duration(time.Duration(r.DurationMS * float64(time.Millisecond)))
		limit := time.Duration(r.TimeoutMS) * time.Millisecond
		switch r.Result {
		case "fail":
			fmt.Fprintf(&b, "FAIL %s → %s: %s\n", r.Event, r.Command, r.Problem)
		case "slow":
			fmt.Fprintf(&b, "SLOW %s → %s: %s\n", r.Event, r.Command, r.Problem)
		default:
			fmt.Fprintf(&b, "ok   %s → %s: %s (timeout %s)\n", r.Event, r.Command, took, limit)
		}
	}
	if len(d.Runs) == 0 {
		b.WriteString("No event is wired to session-hooks: run session-hooks install.\n")
	}
	if d.LogsError != "" {
		fmt.Fprintf(&b, "\nLogs: %s\n", d.LogsError)
	} else {
		fmt.Fprintf(&b, "\nLogs: %s is writable\n", d.LogsDir)
	}
	if d.TranscriptN == 0 {
		fmt.Fprintf(&b, "Transcripts: %s (none yet)\n", d.Transcripts)
	} else {
		fmt.Fprintf(&b, "Transcripts: %s (%d transcript(s))\n", d.Transcripts, d.TranscriptN)
	}
	if d.LastRecovery != "" {
		fmt.Fprintf(&b, "Last recovery after a compaction: %s\n", d.LastRecovery)
	}
	if d.GitError != "" {
		fmt.Fprintf(&b, "Git: %s\n", d.GitError)
	} else {
		fmt.Fprintf(&b, "Git engine: %s\n", d.GitEngine)
	}
	return b.String()
}
