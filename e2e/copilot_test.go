//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/e2e/fakeapi"
)

// copilotVersion is the GitHub Copilot CLI release the suite pins; the
// fixtures in testdata/copilot-1.0.102 were recorded from it.
var copilotVersion = versionOf("SESSION_HOOKS_E2E_COPILOT", "1.0.102")

// requireCopilot is the pinned Copilot CLI, installed with npm on first use.
func requireCopilot(t *testing.T) string {
	t.Helper()
	return requireNPM(t, "GitHub Copilot CLI", "@github/copilot", copilotVersion, "copilot")
}

// copilotIn makes root's home and project (a git repository with one
// commit) and returns them with a function running a command in the
// project as Copilot CLI's user does: offline against the fake API at url,
// session-hooks on PATH (the entries run it by name), the folder trusted
// (COPILOT_ALLOW_ALL, as a person does when Copilot CLI asks at the first
// start), env added.
func copilotIn(t *testing.T, root, url string, env ...string) (project, home string, run func(string, ...string) string) {
	t.Helper()
	home, project = filepath.Join(root, "home"), filepath.Join(root, "project")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(project, 0o755)
	run = gitProject(t, project, hooksBin, true, append([]string{"HOME=" + home, "COPILOT_HOME=" + filepath.Join(home, ".copilot"), "COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_TYPE=anthropic", "COPILOT_PROVIDER_BASE_URL=" + url, "COPILOT_PROVIDER_API_KEY=x",
		"COPILOT_MODEL=claude-sonnet-4", "COPILOT_ALLOW_ALL=true"}, env...)...)
	return project, home, run
}

// A Copilot CLI session wired by `install --agent copilot` alone gets the
// brief in its first request; after /compact, the next run's first request
// holds the recovery quoting the request, with its prompt, and every
// request after it holds the recovery and the brief once each; the next
// session gets the handoff; uninstall leaves the repository as it was.
func TestCopilotSessionsGetTheBriefTheRecoveryAndTheHandoff(t *testing.T) {
	copilot := requireCopilot(t)
	const request = "fix the parser so that the tests pass"
	root := t.TempDir()
	project := filepath.Join(root, "project")
	srv := fakeapi.New("The user asked to fix the parser; the tests were run.",
		fakeapi.Tool("create", map[string]any{"path": filepath.Join(project, "parser.go"), "file_text": "package parser\n"}),
		fakeapi.Tool("bash", map[string]any{"command": "echo FAIL parser_test.go:12: want 3, got 4; exit 1", "description": "run the tests"}),
		fakeapi.Text("I will look at the parser."))
	defer srv.Close()
	srv.Truth = func() []byte { return readTruth(project, typedIn(project)) }
	defer func() {
		var bodies, truths [][]byte
		for _, r := range srv.Requests() {
			if r.Kind() == "main" {
				bodies, truths = append(bodies, r.Body), append(truths, r.Truth)
			}
		}
		auditBodies(t, bodies, truths)
	}()
	_, _, run := copilotIn(t, root, srv.URL)
	run(hooksBin, "install", "--agent", "copilot")
	run("git", "add", ".gitignore", ".github")
	run("git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "Wire session-hooks for Copilot CLI")
	if out := run(hooksBin, "doctor", "--agent", "copilot"); strings.Count(out, "\nok   ") != 5 || strings.Contains(out, "FAIL") {
		t.Errorf("doctor after install:\n%s", out)
	}

	seen := 0
	next := func() (main []string, summaries int) {
		all := srv.Requests()
		for _, r := range all[seen:] {
			switch r.Kind() {
			case "main":
				main = append(main, string(r.Body))
			case "summary":
				summaries++
			}
		}
		seen = len(all)
		return main, summaries
	}
	const brief, recovered = "what GitHub Copilot CLI does not say of it", "Pre-Compaction Context"

	run(copilot, "-p", request, "--allow-all-tools")
	main, _ := next()
	if len(main) == 0 || !strings.Contains(main[0], brief) || !strings.Contains(main[0], "Start") {
		t.Fatalf("the first request has no brief:\n%.3000s", strings.Join(main, "\n"))
	}
	for i, body := range main {
		if n := strings.Count(body, brief); n != 1 {
			t.Errorf("request %d holds the brief %d times", i, n)
		}
	}

	run(copilot, "--continue", "-p", "/compact", "--allow-all-tools")
	if _, summaries := next(); summaries == 0 {
		t.Fatal("Copilot CLI did not compact the conversation")
	}
	if _, err := os.Stat(filepath.Join(project, ".claude", "logs", "pre-compact-state.md")); err != nil {
		t.Errorf("preCompact took no snapshot: %v", err)
	}

	srv.Push(fakeapi.Text("Going on."))
	run(copilot, "--continue", "-p", "go on", "--allow-all-tools")
	main, _ = next()
	if len(main) == 0 || !strings.Contains(main[0], recovered) || !strings.Contains(main[0], request) || !strings.Contains(main[0], "parser.go") {
		t.Fatalf("the first request after the compaction has no recovery quoting the request and the file:\n%.4000s", strings.Join(main, "\n"))
	}
	for i, body := range main {
		if n, m := strings.Count(body, recovered), strings.Count(body, brief); n != 1 || m != 1 {
			t.Errorf("request %d after the compaction holds the recovery %d times and the brief %d times, want once each", i, n, m)
		}
	}

	// The next run's start replaces the previous start's block; the
	// recovery came with a prompt, and stays in the history, once.
	srv.Push(fakeapi.Text("Still going."))
	run(copilot, "--continue", "-p", "and now?", "--allow-all-tools")
	main, _ = next()
	if len(main) == 0 {
		t.Fatal("no request")
	}
	if n, m := strings.Count(main[0], recovered), strings.Count(main[0], brief); n != 1 || m != 1 {
		t.Errorf("the next run's request holds the recovery %d times and the brief %d times, want once each", n, m)
	}

	srv.Push(fakeapi.Text("Looking."))
	run(copilot, "-p", "what is left to do?", "--allow-all-tools")
	main, _ = next()
	if len(main) == 0 || !strings.Contains(main[0], "previous session") || !strings.Contains(main[0], "and now?") {
		t.Errorf("the next session's first request has no handoff quoting the last request; what it holds of ours:\n%s", strings.Join(oursIn([]byte(main[0])), "\n---\n"))
	}

	run(hooksBin, "uninstall", "--agent", "copilot")
	if _, err := os.Stat(filepath.Join(project, ".github")); !os.IsNotExist(err) {
		t.Errorf("uninstall left .github: %v", err)
	}
}

// With --long-running, Copilot CLI's agentStop runs the long-running
// checks: a stop that leaves a required file missing is blocked once, and
// the reason reaches the model as the next request's message.
func TestCopilotStopIsBlockedOnceByTheLongRunningChecks(t *testing.T) {
	copilot := requireCopilot(t)
	srv := fakeapi.New("summary", fakeapi.Text("Done."), fakeapi.Text("Done, really."))
	defer srv.Close()
	project, _, run := copilotIn(t, t.TempDir(), srv.URL)
	addFeatureList(project, run)
	run(hooksBin, "install", "--agent", "copilot", "--long-running")
	run(copilot, "-p", "build the next feature", "--allow-all-tools")
	var main []string
	for _, r := range srv.Requests() {
		if r.Kind() == "main" {
			main = append(main, string(r.Body))
		}
	}
	blockedOnce(t, main)
}

// Copilot CLI's automatic compaction comes inside a run, between tool
// calls: the recovery rides the first tool result after it (postToolUse),
// quoting the request, once, in that same run.
func TestCopilotCompactionInsideARunIsRecoveredWithTheNextToolResult(t *testing.T) {
	copilot := requireCopilot(t)
	const request = "list the numbers, step by step"
	var script []fakeapi.Reply
	for i := range 6 {
		script = append(script, fakeapi.Tool("bash", map[string]any{"command": fmt.Sprintf("seq 1 400 # step %d", i), "description": "list"}))
	}
	srv := fakeapi.New("The user asked to list numbers.", append(script, fakeapi.Text("Done."))...)
	defer srv.Close()
	// A prompt limit this small makes Copilot CLI compact after a few
	// tool results, inside the run.
	_, _, run := copilotIn(t, t.TempDir(), srv.URL, "COPILOT_PROVIDER_MAX_PROMPT_TOKENS=14000")
	run(hooksBin, "install", "--agent", "copilot")
	run(copilot, "-p", request, "--allow-all-tools")
	var main []string
	summaries := 0
	for _, r := range srv.Requests() {
		switch r.Kind() {
		case "main":
			if summaries > 0 {
				main = append(main, string(r.Body))
			}
		case "summary":
			summaries++
		}
	}
	const recovered = "Pre-Compaction Context"
	if summaries == 0 || len(main) == 0 {
		t.Fatalf("Copilot CLI did not compact inside the run (%d summaries, %d requests after)", summaries, len(main))
	}
	last := main[len(main)-1]
	if n := strings.Count(last, recovered); n != 1 || !strings.Contains(last, request) || !strings.Contains(last, "Additional guidance from postToolUse hooks") {
		t.Errorf("the last request holds the recovery %d times (want once, after a tool's result, quoting the request):\n%.3000s", n, last)
	}
}

// In a folder Copilot CLI does not trust, `copilot -p` runs none of the
// repository's hooks and says nothing: install says so and how to trust
// it, status reports it as a problem; once the user trusts the folder (as
// Copilot CLI records it in config.json), status is clean and the session
// gets the brief.
func TestCopilotInAnUntrustedFolderIsReportedAndTrustedWorks(t *testing.T) {
	copilot := requireCopilot(t)
	root := t.TempDir()
	srv := fakeapi.New("summary", fakeapi.Text("Done."), fakeapi.Text("Done again."))
	defer srv.Close()
	project, home, run := copilotIn(t, root, srv.URL, "COPILOT_ALLOW_ALL=")
	out := run(hooksBin, "install", "--agent", "copilot")
	if !strings.Contains(out, "does not trust "+project+" yet") || !strings.Contains(out, filepath.Join(home, ".copilot", "config.json")) {
		t.Errorf("install in an untrusted folder:\n%s", out)
	}
	if out, problem := statusIn(t, project, home, "copilot"); !problem || !strings.Contains(out, "Copilot CLI does not trust "+project) {
		t.Errorf("status in an untrusted folder (problem %v):\n%s", problem, out)
	}
	const brief = "what GitHub Copilot CLI does not say of it"
	run(copilot, "-p", "hello", "--allow-all-tools")
	mainBodies := func() []string {
		var out []string
		for _, r := range srv.Requests() {
			if r.Kind() == "main" {
				out = append(out, string(r.Body))
			}
		}
		return out
	}
	if m := mainBodies(); len(m) != 1 || strings.Contains(m[0], brief) {
		t.Fatalf("copilot -p in an untrusted folder: %d requests, brief %v", len(m), len(m) > 0 && strings.Contains(m[0], brief))
	}
	// What Copilot CLI 1.0.102 writes when the user trusts the folder.
	os.WriteFile(filepath.Join(home, ".copilot", "config.json"),
		[]byte("// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    \""+project+"\"\n  ]\n}\n"), 0o600)
	if out, problem := statusIn(t, project, home, "copilot"); problem {
		t.Errorf("status in a trusted folder:\n%s", out)
	}
	run(copilot, "-p", "hello again", "--allow-all-tools")
	if m := mainBodies(); len(m) != 2 || !strings.Contains(m[1], brief) {
		t.Errorf("copilot -p in the trusted folder: %d requests, no brief", len(m))
	}
	if st := run("git", "status", "--porcelain", "--untracked-files=all"); strings.Contains(st, ".claude/logs") {
		t.Errorf("our logs show as the user's work:\n%s", st)
	}
}
