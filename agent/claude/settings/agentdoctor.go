package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/session-hooks/session-hooks/logs"
)

// AgentDoctor is doctor for an agent CLI other than Claude Code: what its
// status found wrong with the wiring, and every entry of ours rehearsed as
// that client runs it.
type AgentDoctor struct {
	wiring.Doctor
	label string // the agent as a person names it
}

// RunAgentDoctor rehearses each entry with this binary and checks that
// the logs can be written; problems are the status's warnings.
func RunAgentDoctor(agent, label, project string, problems []string, rehearsals []hookfile.Rehearsal) AgentDoctor {
	d := AgentDoctor{wiring.Doctor{SchemaVersion: facts.SchemaVersion, Agent: agent, Project: project, Runs: []wiring.DoctorRun{},
		Wiring: append([]string{}, problems...), NotRun: []string{}, StandsDown: []string{}}, label}
	self, selfErr := os.Executable()
	for _, h := range rehearsals {
		r := Rehearse(project, h, self, selfErr, "")
		if r.Result != "ok" {
			d.Problems++
		}
		d.Runs = append(d.Runs, r)
	}
	d.Problems += len(d.Wiring)
	d.LogsDir, d.LogsError = checkLogs(project)
	if d.LogsError != "" {
		d.Problems++
	}
	return d
}

// checkLogs writes and removes a file in the project's log directory: its
// path, and why it cannot be written ("" when it can).
func checkLogs(project string) (path, problem string) {
	dir := logs.DirFor(project)
	if err := dir.Write(".doctor-check", []byte("x")); err != nil {
		return dir.Path, err.Error()
	}
	os.Remove(filepath.Join(dir.Path, ".doctor-check"))
	return dir.Path, ""
}

// logsLine is the report's line on the log directory.
func logsLine(path, problem string) string {
	if problem != "" {
		return "\nLogs: " + problem + "\n"
	}
	return "\nLogs: " + path + " is writable\n"
}

// Text is the report as people read it.
func (d AgentDoctor) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Project: %s (%s)\n\n", d.Project, d.label)
	for _, r := range d.Runs {
		switch r.Result {
		case "ok":
			fmt.Fprintf(&b, "ok   %s → %s: %s (timeout %s)\n", r.Event, r.Command,
				logs.Duration(time.Duration(r.DurationMS*float64(time.Millisecond))), time.Duration(r.TimeoutMS)*time.Millisecond)
		default:
			fmt.Fprintf(&b, "%-4s %s → %s: %s\n", strings.ToUpper(r.Result), r.Event, r.Command, r.Problem)
		}
	}
	for _, w := range d.Wiring {
		fmt.Fprintf(&b, "FAIL %s\n", w)
	}
	b.WriteString(logsLine(d.LogsDir, d.LogsError))
	return b.String()
}
