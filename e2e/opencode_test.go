//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/e2e/fakechat"
)

// The OpenCode release the suite pins (npm's opencode-ai: one binary per
// platform, in its own package).
var opencodeVersion = versionOf("SESSION_HOOKS_E2E_OPENCODE", "1.18.33")

// isOpenCodeOwn tells OpenCode's own requests (a session's title, a
// compaction's summary) by their system prompts.
func isOpenCodeOwn(body []byte) bool {
	return bytes.Contains(body, []byte("You are a title generator")) || isOpenCodeSummary(body)
}

func isOpenCodeSummary(body []byte) bool {
	return bytes.Contains(body, []byte("You are a context summarization agent"))
}

// opencodeProject is a home and a git project with one commit, wired by
// `install --agent opencode` (the project's plugin), whose one model is
// srv's; opencode runs a one-shot prompt there, as a user does. Every
// request is audited against git at that moment.
func opencodeProject(t *testing.T, srv *fakechat.Server) (project string, run func(string, ...string) string, opencode func(...string) string) {
	t.Helper()
	bin := requireNPM(t, "OpenCode", "opencode-ai", opencodeVersion, "opencode")
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project = filepath.Join(root, "project")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(project, 0o755)
	srv.IsSummary, srv.Summary = isOpenCodeOwn, "## Objective\n- write the notes"
	srv.Truth = func() []byte { return readTruth(project, typedIn(project)) }
	t.Cleanup(func() {
		var bodies, truths [][]byte
		for _, r := range srv.Requests() {
			bodies, truths = append(bodies, r.Body), append(truths, r.Truth)
		}
		auditBodies(t, bodies, truths)
		if dump := os.Getenv("SESSION_HOOKS_E2E_DUMP"); dump != "" {
			os.WriteFile(dump, bytes.Join(bodies, []byte("\n")), 0o644)
		}
	})
	// OpenCode takes its directory from $PWD, which exec leaves as it is.
	run = gitProject(t, project, hooksBin, true, "HOME="+home, "PWD="+project)
	// The model is OpenCode's configuration, kept out of git as a user's
	// own would be.
	os.WriteFile(filepath.Join(project, "opencode.json"), []byte(opencodeConfig(srv.URL)), 0o644)
	os.WriteFile(filepath.Join(project, ".git", "info", "exclude"), []byte("opencode.json\n.opencode/\n"), 0o644)
	run(hooksBin, "--agent", "opencode", "install")
	// The message goes word by word, as typed on a command line:
	// OpenCode quotes a single argument that holds a blank.
	opencode = func(args ...string) string {
		last := len(args) - 1
		return run(bin, append(append([]string{"run", "-m", "fake/fake-model"}, args[:last]...), strings.Fields(args[last])...)...)
	}
	return project, run, opencode
}

func opencodeConfig(url string) string {
	return `{"$schema":"https://opencode.ai/config.json","autoupdate":false,"share":"disabled","model":"fake/fake-model",
"provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"Fake","options":{"baseURL":"` + url + `/v1","apiKey":"x"},
"models":{"fake-model":{"name":"Fake","tool_call":true,"limit":{"context":200000,"output":8000}}}}}}` + "\n"
}

// mainOpenCodeRequests are the bodies of the requests that carried the
// conversation, from the i-th on: not a title's or a summary's.
func mainOpenCodeRequests(srv *fakechat.Server, from int) []string {
	var out []string
	for _, r := range srv.Requests()[from:] {
		if !isOpenCodeOwn(r.Body) {
			out = append(out, string(r.Body))
		}
	}
	return out
}

// An OpenCode session wired by `install --agent opencode` gets the brief
// in its system prompt. When it compacts mid-turn, the snapshot (the
// request, the todo list, the file written, the failed read) is in what
// the summary must keep, and the recovery is in the system prompt of the
// requests after it, once each; the handoff is written when the run goes
// idle and the next run is told it; uninstall takes the plugin back.
func TestOpenCodeSessionsGetTheBriefTheSnapshotAndTheRecovery(t *testing.T) {
	const request = "write the notes and commit them"
	srv := fakechat.New()
	defer srv.Close()
	project, run, opencode := opencodeProject(t, srv)
	srv.Add(fakechat.Reply{Text: "I will write the notes first.", Calls: []fakechat.Call{{Name: "todowrite",
		Arguments: `{"todos":[{"content":"Write notes.txt","status":"in_progress","priority":"high"},{"content":"Commit the notes","status":"pending","priority":"medium"}]}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "write", Arguments: `{"filePath":` + quote(filepath.Join(project, "notes.txt")) + `,"content":"notes\n"}`}}},
		// The reply reports a prompt near the window: OpenCode compacts
		// before the request that follows it.
		fakechat.Reply{Calls: []fakechat.Call{{Name: "read", Arguments: `{"filePath":` + quote(filepath.Join(project, "missing.txt")) + `}`}}, PromptTokens: 199000},
		fakechat.Text("notes.txt is written; next I will commit it."),
		fakechat.Text("Going on."))
	if out := run(hooksBin, "--agent", "opencode", "doctor"); strings.Count(out, "\nok   ") != 4 || strings.Contains(out, "FAIL") {
		t.Errorf("doctor after install:\n%s", out)
	}
	const brief, recovered = "what OpenCode does not say of it", "Pre-Compaction Context"
	opencode(request)
	first := mainOpenCodeRequests(srv, 0)
	var summaries []string
	for _, r := range srv.Requests() {
		if isOpenCodeSummary(r.Body) {
			summaries = append(summaries, string(r.Body))
		}
	}
	if len(summaries) != 1 || len(first) != 4 {
		t.Fatalf("OpenCode did not compact once (%d summaries, %d requests)", len(summaries), len(first))
	}
	for _, want := range []string{"When you write the summary, keep these facts", "Write notes.txt", "notes.txt", "missing.txt"} {
		if !strings.Contains(summaries[0], want) {
			t.Errorf("what the summary must keep does not say %q", want)
		}
	}
	for i, body := range first {
		if n := strings.Count(body, brief); n != 1 {
			t.Errorf("request %d holds the brief %d times", i, n)
		}
		if n, want := strings.Count(body, recovered), min(i/3, 1); n != want {
			t.Errorf("request %d holds the recovery %d times, want %d", i, n, want)
		}
	}
	for _, want := range []string{request, "Write notes.txt", "notes.txt", "File not found"} {
		if !strings.Contains(first[3], want) {
			t.Errorf("the recovery does not say %q", want)
		}
	}
	handoff, err := os.ReadFile(filepath.Join(project, ".claude", "logs", "handoff.json"))
	if err != nil || !bytes.Contains(handoff, []byte(request)) {
		t.Errorf("the handoff of the run: %v\n%s", err, handoff)
	}
	seen := len(srv.Requests())
	opencode("--continue", "go on")
	if next := mainOpenCodeRequests(srv, seen); len(next) != 1 || !strings.Contains(next[0], "previous session") && !strings.Contains(next[0], brief) {
		t.Errorf("the resumed run's request:\n%.3000s", strings.Join(next, "\n"))
	}
	if t.Failed() {
		b, _ := os.ReadFile(filepath.Join(project, ".claude", "logs", "events.jsonl"))
		t.Logf("events.jsonl:\n%s", b)
	}
	if out := run("git", "status", "--porcelain"); strings.Contains(out, ".claude") {
		t.Errorf("git status shows our logs as the user's work:\n%s", out)
	}
	run(hooksBin, "--agent", "opencode", "uninstall")
	if _, err := os.Stat(filepath.Join(project, ".opencode", "plugin", "session-hooks.js")); !os.IsNotExist(err) {
		t.Errorf("uninstall left the plugin: %v", err)
	}
}

// With --long-running, the checks run when an OpenCode session goes idle:
// an answer that leaves a required file missing is held once, its reason
// sent to the session as the next prompt.
func TestOpenCodeStopIsHeldOnceByTheLongRunningChecks(t *testing.T) {
	srv := fakechat.New(fakechat.Text("Done."), fakechat.Text("Done, really."))
	defer srv.Close()
	project, run, opencode := opencodeProject(t, srv)
	addFeatureList(project, run)
	run(hooksBin, "install", "--agent", "opencode", "--long-running")
	opencode("build the next feature")
	blockedOnce(t, mainOpenCodeRequests(srv, 0))
}
