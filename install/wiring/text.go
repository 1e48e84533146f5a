package wiring

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/logs"
)

// Reader is what the texts say of the client that reads the files: its
// name as people say it, the timeout it gives an entry that sets none (0:
// none to say), and the most of a start's output it injects whole (0: not
// measured).
type Reader struct {
	Label          string
	DefaultTimeout time.Duration
	Limit          int
}

// Text is status as people read it, rendered from the data --format json
// prints, the same for every client.
func (st Status) Text(c Reader) string {
	label := c.Label
	var b strings.Builder
	for _, s := range st.Scopes {
		switch s.State {
		case "unreadable":
			fmt.Fprintf(&b, "%s (%s): unreadable: %s\n", s.Scope, s.Path, s.Error)
		case "not-loaded":
			fmt.Fprintf(&b, "%s (%s): NOT LOADED by %s (%s)\n", s.Scope, s.Path, label, s.Error)
		case "absent":
			fmt.Fprintf(&b, "%s (%s): not present\n", s.Scope, s.Path)
		case "present":
			if len(s.Hooks) == 0 {
				fmt.Fprintf(&b, "%s (%s): no hooks\n", s.Scope, s.Path)
				continue
			}
			fmt.Fprintf(&b, "%s (%s):\n", s.Scope, s.Path)
			for _, h := range s.Hooks {
				fmt.Fprintf(&b, "  %s → %s (%s)%s%s\n", h.Event+matcherText(h.Matcher), h.Command, hookTerms(h, c.DefaultTimeout), trustText(h.Trust), standing(s.Scope, h))
			}
		}
	}
	b.WriteString("\n")
	if len(st.Warnings) == 0 {
		b.WriteString("Every session event is wired to session-hooks.\n")
	}
	for _, w := range st.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	return b.String()
}

func matcherText(m string) string {
	if m == "" {
		return ""
	}
	return " [" + m + "]"
}

// hookTerms are an entry's timeout and form.
func hookTerms(h Hook, dflt time.Duration) string {
	t := "no timeout"
	if dflt > 0 {
		t = "default timeout " + strconv.FormatFloat(dflt.Seconds(), 'f', -1, 64) + "s"
	}
	if h.Timeout != nil {
		t = "timeout " + strconv.FormatFloat(*h.Timeout, 'f', -1, 64) + "s"
	}
	if h.Exec {
		t += ", exec form"
	}
	return t
}

func trustText(trust string) string {
	if trust == "" {
		return ""
	}
	return " [" + trust + "]"
}

// standing says whether a plugin's entry runs or stands down.
func standing(scope string, h Hook) string {
	switch {
	case !strings.HasPrefix(scope, "plugin "):
		return ""
	case h.StandsDown != "":
		return ": stands down, the " + h.StandsDown + " settings run it"
	}
	return ": runs"
}

// Text is doctor's report as people read it, rendered from the data
// --format json prints, the same for every client.
func (d Doctor) Text(c Reader) string {
	label, limit := c.Label, c.Limit
	var b strings.Builder
	fmt.Fprintf(&b, "Project: %s (%s)\n\n", d.Project, label)
	for _, r := range d.Runs {
		if !r.Ours {
			continue
		}
		switch r.Result {
		case "fail":
			fmt.Fprintf(&b, "FAIL %s → %s: %s\n", r.Event, r.Command, r.Problem)
		case "slow":
			fmt.Fprintf(&b, "SLOW %s → %s: %s\n", r.Event, r.Command, r.Problem)
		default:
			took := logs.Duration(time.Duration(r.DurationMS * float64(time.Millisecond)))
			fmt.Fprintf(&b, "ok   %s → %s: %s (timeout %s)\n", r.Event, r.Command, took, time.Duration(r.TimeoutMS)*time.Millisecond)
		}
		if r.Note != "" {
			fmt.Fprintf(&b, "     note: %s\n", r.Note)
		}
	}
	if !slices.ContainsFunc(d.Runs, func(r DoctorRun) bool { return r.Ours }) && len(d.Wiring) == 0 {
		b.WriteString("No event is wired to session-hooks: run session-hooks install.\n")
	}
	for _, w := range d.Wiring {
		fmt.Fprintf(&b, "FAIL %s\n", w)
	}
	if limit > 0 && d.StartOutput > limit {
		fmt.Fprintf(&b, "FAIL our SessionStart hooks print %d characters together at a startup; %s replaces output over %d with a short preview:\n", d.StartOutput, label, limit)
		for _, r := range d.Runs {
			if r.Ours && r.Event == "SessionStart" && !strings.Contains(r.Command, "--compact-recovery") {
				fmt.Fprintf(&b, "       %d from %s\n", r.OutputLen, r.Command)
			}
		}
	}
	for _, s := range d.StandsDown {
		fmt.Fprintf(&b, "skip %s: the plugin stands down for it\n", s)
	}
	if n := len(d.NotRun); n > 0 {
		fmt.Fprintf(&b, "Not run: %d other SessionStart command(s), which share %s's %d-character limit with ours (doctor runs nothing it did not write):\n", n, label, limit)
		for _, c := range d.NotRun {
			fmt.Fprintf(&b, "       %s\n", c)
		}
	}
	if d.LogsError != "" {
		b.WriteString("\nLogs: " + d.LogsError + "\n")
	} else {
		b.WriteString("\nLogs: " + d.LogsDir + " is writable\n")
	}
	switch {
	case d.Transcripts == "":
	case d.TranscriptN == 0:
		fmt.Fprintf(&b, "Transcripts: %s (none yet)\n", d.Transcripts)
	default:
		fmt.Fprintf(&b, "Transcripts: %s (%d transcript(s))\n", d.Transcripts, d.TranscriptN)
	}
	if d.LastRecovery != "" {
		fmt.Fprintf(&b, "Last recovery after a compaction: %s\n", d.LastRecovery)
	}
	switch {
	case d.TelemetryError != "":
		fmt.Fprintf(&b, "FAIL telemetry: %s\n", d.TelemetryError)
	case d.Telemetry != "":
		fmt.Fprintf(&b, "Telemetry: %s\n", d.Telemetry)
	}
	switch {
	case d.GitError != "":
		fmt.Fprintf(&b, "Git: %s\n", d.GitError)
	case d.GitEngine != "":
		fmt.Fprintf(&b, "Git engine: %s\n", d.GitEngine)
	}
	return b.String()
}
