package install

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/otlp"
)

// RunDoctor rehearses each entry with this binary and checks that
// the logs can be written; problems are the status's warnings.
func RunDoctor(agent, project string, problems []string, rehearsals []hookfile.Rehearsal) wiring.Doctor {
	d := wiring.Doctor{SchemaVersion: facts.SchemaVersion, Agent: agent, Project: project, Runs: []wiring.DoctorRun{},
		Wiring: append([]string{}, problems...), NotRun: []string{}, StandsDown: []string{}}
	self, selfErr := os.Executable()
	for _, h := range rehearsals {
		r := Rehearse(project, h, self, selfErr, "")
		if r.Result != "ok" {
			d.Problems++
		}
		d.Runs = append(d.Runs, r)
	}
	d.Problems += len(d.Wiring)
	d.LogsDir, d.LogsError = CheckLogs(project)
	if d.LogsError != "" {
		d.Problems++
	}
	if d.Telemetry, d.TelemetryError = CheckTelemetry(project, os.Getenv); d.TelemetryError != "" {
		d.Problems++
	}
	return d
}

// CheckLogs writes and removes a file in the project's log directory: its
// path, and why it cannot be written ("" when it can).
func CheckLogs(project string) (path, problem string) {
	dir := logs.DirFor(project)
	if err := dir.Write(".doctor-check", []byte("x")); err != nil {
		return dir.Path, err.Error()
	}
	os.Remove(filepath.Join(dir.Path, ".doctor-check"))
	return dir.Path, ""
}

// Rehearse runs an entry of ours with this binary (self) and without a
// shell, and says how it went. It runs only a hook subcommand with hook
// flags (ParseHookCall): an entry holding anything else is reported and
// not run, whoever wrote it.
func Rehearse(project string, h hookfile.Rehearsal, self string, selfErr error, custom string) wiring.DoctorRun {
	run := wiring.DoctorRun{Event: h.Event, Command: h.Command, Result: "ok", Ours: true, TimeoutMS: float64(h.Limit.Milliseconds())}
	call, err := hookfile.ParseHookCall(h.Command, custom)
	switch {
	case err != nil && hookfile.Compound(h.Command):
		run.Result, run.Problem = "fail", err.Error()+"; doctor does not run it, and install will not replace it"
		return run
	case err != nil:
		run.Result, run.Problem = "fail", "not run: "+err.Error()
		return run
	case selfErr != nil:
		run.Result, run.Problem = "fail", "cannot find this program to rehearse it: "+selfErr.Error()
		return run
	}
	cmd := exec.Command(self, call.Args()...)
	cmd.Args[0] = "session-hooks" // the name it is wired by, whatever the binary's file is called
	cmd.Dir, cmd.Stdin = project, bytes.NewReader(h.Payload)
	// The run is a rehearsal: it must not replace the logs of the
	// sessions people look at.
	cmd.Env = append(os.Environ(), "SESSION_HOOKS_NO_LOG=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	run.DurationMS = float64(took.Microseconds()) / 1000
	switch {
	case err != nil:
		run.Result, run.Problem = "fail", err.Error()
	case stderr.Len() > 0:
		line, _, _ := strings.Cut(stderr.String(), "\n")
		run.Result, run.Problem = "fail", "printed on stderr: "+line
	case took > h.Limit:
		run.Result, run.Problem = "slow", fmt.Sprintf("%s, over its %s timeout", logs.Duration(took), h.Limit)
	case strings.HasPrefix(stdout.String(), "session-hooks: ") && strings.Contains(stdout.String(), "Usage: session-hooks"):
		line, _, _ := strings.Cut(stdout.String(), "\n")
		run.Result, run.Problem = "fail", "its output is a usage error: "+line
	case h.Check != nil && h.Check(stdout.Bytes()) != "":
		run.Result, run.Problem = "fail", h.Check(stdout.Bytes())
	}
	run.OutputLen = utf8.RuneCount(stdout.Bytes())
	program := hookfile.ProgramOf(h.Command, custom)
	if p := wiredProblem(program, project, self, exec.LookPath); p != "" && run.Result == "ok" {
		run.Result, run.Problem = "fail", p
	}
	run.Note = LauncherNote(program, project, exec.LookPath)
	return run
}

// wiredProblem says why the program an entry runs, found as the client
// will find it (a bare name on PATH, a path from the project directory),
// is not the binary doctor rehearsed (self); "" when it is. The rehearsal
// of self says nothing of a command the client cannot find, or of another
// version of it. The plugin's bridge finds its binary itself.
func wiredProblem(program, project, self string, lookPath func(string) (string, error)) string {
	if program == "" || strings.TrimSuffix(filepath.Base(program), ".exe") == "session-hooks-bridge" {
		return ""
	}
	path := os.Expand(program, func(name string) string {
		if strings.HasSuffix(name, "PROJECT_DIR") { // the client's project directory variable
			return project
		}
		return os.Getenv(name)
	})
	switch {
	case !strings.ContainsAny(path, `/\`):
		found, err := lookPath(path)
		if err != nil {
			return fmt.Sprintf("the client runs %s, which is not on PATH: it will not find it (put session-hooks on PATH, or install again from the binary you want run)", program)
		}
		path = found
	case !filepath.IsAbs(path):
		path = filepath.Join(project, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Sprintf("the client runs %s, which does not exist", path)
	}
	me, err := filepath.EvalSymlinks(self)
	if err != nil || real == me || npmRuns(real, me) {
		return ""
	}
	return fmt.Sprintf("the client runs %s, not %s, the binary doctor rehearsed: run that one's doctor, or install again from the binary you want run", real, me)
}

// LauncherNote says what each hook costs beyond the rehearsal when the
// client will run npm's launcher (installed with --ignore-scripts, or on
// Windows): Node.js starts before the binary, about 100 ms a hook where
// the binary takes 3 to 9. "" when the command is the binary.
func LauncherNote(program, project string, lookPath func(string) (string, error)) string {
	path := program
	if !strings.ContainsAny(path, `/\`) {
		found, err := lookPath(path)
		if err != nil {
			return ""
		}
		path = found
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(project, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil || filepath.Base(real) != "session-hooks.js" {
		return ""
	}
	head := make([]byte, 2)
	f, err := os.Open(real)
	if err != nil {
		return ""
	}
	defer f.Close()
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "#!" {
		return "" // the binary npm's install script put in the launcher's place
	}
	return "the client runs npm's launcher (" + real + "), which starts Node.js before the binary: about 100 ms more a hook. " +
		"Install with npm's install script (without --ignore-scripts) to run the binary directly, or install --scope local or user, which write its path"
}

// CheckTelemetry says what the hooks' export to the team's collector did,
// from its state in the log directory, and whether this environment's
// variables would send: a line for a person (status), and a problem (""
// when none). Both are "" when telemetry was never on here.
func CheckTelemetry(project string, getenv func(string) string) (status, problem string) {
	st, found := otlp.LoadState(logs.DirFor(project))
	if otlp.Enabled(getenv) {
		if _, _, err := otlp.FromEnv(getenv, ""); err != nil {
			return "", "telemetry is on in this environment, but " + err.Error()
		}
	}
	switch {
	case found && st.Error != "":
		return "", fmt.Sprintf("the hooks have sent no event to the collector since %s: %s", st.Since.UTC().Format(time.RFC3339), st.Error)
	case found && st.Sent > 0:
		return fmt.Sprintf("%d event(s) sent to the collector, the last at %s", st.Sent, st.LastSent.UTC().Format(time.RFC3339)), ""
	case otlp.Enabled(getenv):
		return "on in this environment; nothing sent yet", ""
	}
	return "", ""
}
