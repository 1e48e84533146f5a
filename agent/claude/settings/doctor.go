package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/install"

	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/session-hooks/session-hooks/logs/events"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/logs"
)

// Doctor is what doctor found for Claude Code: every wired command of
// ours run as Claude Code would run it, and the rest of what the hooks
// need, in the one shape of every agent's doctor.
type Doctor struct{ wiring.Doctor }

// RunDoctor rehearses every wired event of ours against the project with
// a sample payload, and checks the logs, the transcripts and git. It never
// blocks a stop or changes the settings, and it runs nothing but this
// program: an entry of ours is rehearsed by running this binary with the
// entry's arguments, without a shell (the settings may be a cloned
// repository's, and their program a file it ships); another tool's
// command is never run.
func RunDoctor(env Env, custom string) Doctor {
	d := Doctor{wiring.Doctor{SchemaVersion: facts.SchemaVersion, Agent: "claude", Project: env.Dir, StandsDown: []string{}}}
	var all []WiredHook
	ran := map[string]bool{}
	self, selfErr := os.Executable()
	var notLoaded []string
	bySettings := map[string]bool{} // rows a settings file wires: the plugin stands down for them
	for _, sc := range ReadStatus(env, custom).Scopes {
		for _, h := range sc.Hooks {
			if h.StandsDown != "" {
				d.StandsDown = append(d.StandsDown, fmt.Sprintf("%s → %s (the %s settings run it)", h.Event, h.Command, h.StandsDown))
			}
		}
		if sc.State == "not-loaded" {
			notLoaded = append(notLoaded, fmt.Sprintf("%s (%s) is not loaded by Claude Code: %s (session-hooks install --scope %s --rewrite-strict rewrites it as strict JSON)", sc.Scope, sc.Path, sc.Error, sc.Scope))
			continue // Claude Code runs none of its hooks
		}
		all = append(all, sc.Hooks...)
		for _, h := range sc.Hooks {
			ours := hookfile.IsOurs(h.Event, h.Command, custom)
			startup := h.Event == protocol.SessionStart && matches(h.Matcher, protocol.SourceStartup)
			if !ours && startup && !slices.Contains(d.NotRun, h.Command) {
				d.NotRun = append(d.NotRun, h.Command)
			}
			row, _ := hookfile.RowFor(h.Event, h.Command)
			rowKey := row.Event + " " + strings.Join(row.Args(), " ")
			if !ours || ran[h.Command] || isPlugin(sc.Scope) && bySettings[rowKey] {
				continue
			}
			if !isPlugin(sc.Scope) {
				bySettings[rowKey] = true
			}
			ran[h.Command] = true
			d.Runs = append(d.Runs, rehearse(env.Dir, h, self, selfErr, custom))
		}
	}
	d.Wiring = append(notLoaded, wiringProblems(all, custom)...)
	d.Problems += len(d.Wiring)
	ours := 0
	for _, r := range d.Runs {
		if r.Ours {
			ours++
		}
		if r.Result != "ok" && r.Ours {
			d.Problems++
		}
		if r.Event == protocol.SessionStart && !strings.Contains(r.Command, "--compact-recovery") {
			d.StartOutput += r.OutputLen
		}
	}
	if d.StartOutput > claude.Limit {
		d.Problems++
	}
	if ours == 0 {
		d.Problems++
	}
	d.LogsDir, d.LogsError = install.CheckLogs(env.Dir)
	if d.LogsError != "" {
		d.Problems++
	}
	if d.Telemetry, d.TelemetryError = install.CheckTelemetry(env.Dir, env.Getenv); d.TelemetryError != "" {
		d.Problems++
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
	if all, err := events.Read(logs.DirFor(env.Dir)); err == nil {
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

// rehearse runs an entry of ours as Claude Code would, but with this
// binary and without a shell, with a sample payload for its event.
func rehearse(project string, h WiredHook, self string, selfErr error, custom string) wiring.DoctorRun {
	limit := 600 * time.Second
	if h.Event == protocol.SessionEnd {
		limit = 1500 * time.Millisecond // Claude Code's own budget without a timeout
	}
	if h.Timeout != nil {
		limit = time.Duration(*h.Timeout) * time.Second
	}
	matcher := h.Matcher
	if e, ok := hookfile.RowFor(h.Event, h.Command); ok && e.Matcher != "" {
		matcher = e.Matcher
	}
	b, _ := json.Marshal(protocol.SamplePayload(h.Event, matcher, "session-hooks-doctor", project))
	return install.Rehearse(project, hookfile.Rehearsal{Event: h.Event, Command: h.Command, Limit: limit, Payload: b}, self, selfErr, custom)
}
