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

// The Factory Droid release the suite pins: its platform package, whose
// binary npm installs without @factory/cli's install script (npm 11 does
// not run it).
var droidVersion = versionOf("SESSION_HOOKS_E2E_DROID", "0.225.2")

func requireDroid(t *testing.T) string {
	t.Helper()
	bin, unavailable := npmFile("Factory Droid", "@factory/cli-linux-x64", droidVersion, "droid",
		filepath.Join("node_modules", "@factory", "cli-linux-x64", "bin", "droid"))
	if unavailable != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("the Factory Droid end-to-end test cannot run in CI: %s", unavailable)
		}
		t.Skipf("Factory Droid end-to-end test skipped: %s", unavailable)
	}
	return bin
}

func isDroidSummary(body []byte) bool {
	return bytes.Contains(body, []byte("Please summarize the following conversation"))
}

// droidProject is a home whose settings name srv's model (Droid runs
// without a login against a custom model) and a git project with one
// commit, wired by `install --agent droid` (the project's
// .factory/settings.json); droid exec runs a prompt there, as a user
// does. Every request is audited against git at that moment.
func droidProject(t *testing.T, srv *fakechat.Server) (project string, run func(string, ...string) string, droid func(string) string) {
	t.Helper()
	bin := requireDroid(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project = filepath.Join(root, "project")
	os.MkdirAll(filepath.Join(home, ".factory"), 0o700)
	os.MkdirAll(project, 0o755)
	os.WriteFile(filepath.Join(home, ".factory", "settings.json"), []byte(`{"customModels":[{"model":"fake-model","displayName":"Fake",`+
		`"baseUrl":"`+srv.URL+`/v1","apiKey":"x","provider":"generic-chat-completion-api","maxOutputTokens":8000}]}`), 0o600)
	srv.IsSummary, srv.Summary = isDroidSummary, "Summary: the notes are being written."
	srv.Truth = func() []byte { return readTruth(project, typedIn(project)) }
	t.Cleanup(func() {
		var bodies, truths [][]byte
		for _, r := range srv.Requests() {
			// A summary request quotes the conversation in one text,
			// Droid's lines with ours: the requests before it hold ours.
			if !isDroidSummary(r.Body) {
				bodies, truths = append(bodies, r.Body), append(truths, r.Truth)
			}
		}
		auditBodies(t, bodies, truths)
	})
	run = gitProject(t, project, hooksBin, true, "HOME="+home, "PWD="+project)
	run(hooksBin, "--agent", "droid", "install")
	droid = func(prompt string) string {
		typeIn(project, []string{prompt})
		return run(bin, "exec", "-m", "custom:Fake-0", "--skip-permissions-unsafe", prompt)
	}
	return project, run, droid
}

func mainDroidRequests(srv *fakechat.Server, from int) []string {
	var out []string
	for _, r := range srv.Requests()[from:] {
		if !isDroidSummary(r.Body) {
			out = append(out, string(r.Body))
		}
	}
	return out
}

// A Factory Droid session wired by `install --agent droid` gets the brief
// in its first request. When it compacts inside the turn (no hook sees
// it), the snapshot taken after the tool result before it gives the
// recovery, with the request and the file written, with the next tool
// result, once; the handoff is written at the end; uninstall takes the
// settings back.
func TestDroidSessionsGetTheBriefAndTheRecoveryAfterACompaction(t *testing.T) {
	const request = "write the notes and commit them"
	srv := fakechat.New()
	defer srv.Close()
	project, run, droid := droidProject(t, srv)
	srv.Add(
		// The reply reports a prompt past Droid's threshold: it compacts
		// before the request that follows the tool's result.
		fakechat.Reply{Text: "I will write the notes first.", Calls: []fakechat.Call{{Name: "Create",
			Arguments: `{"file_path":` + quote(filepath.Join(project, "notes.txt")) + `,"content":"notes\n"}`}}, PromptTokens: 260000},
		// Droid runs PostToolUse after a tool that succeeded only.
		fakechat.Reply{Text: "Now the check.", Calls: []fakechat.Call{{Name: "Execute", Arguments: `{"command":"test -f notes.txt"}`}}},
		fakechat.Text("notes.txt is written; next I will commit it."))
	if out := run(hooksBin, "--agent", "droid", "doctor"); strings.Contains(out, "FAIL") {
		t.Errorf("doctor after install:\n%s", out)
	}
	droid(request)
	main := mainDroidRequests(srv, 0)
	summaries := len(srv.Requests()) - len(main)
	if summaries != 1 || len(main) != 3 {
		t.Fatalf("Droid did not compact once (%d summaries, %d requests)", summaries, len(main))
	}
	const brief, recovered = "what Factory Droid does not say of it", "Pre-Compaction Context"
	if !strings.Contains(main[0], brief) {
		t.Errorf("the first request has no brief")
	}
	for i, want := range []int{0, 0, 1} {
		if n := strings.Count(main[i], recovered); n != want {
			t.Errorf("request %d holds the recovery %d times, want %d", i, n, want)
		}
	}
	for _, want := range []string{request, "notes.txt"} {
		if !strings.Contains(main[2], want) {
			t.Errorf("the recovery does not say %q", want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(project, ".claude", "logs", "handoff.json")); err != nil || !bytes.Contains(b, []byte(request)) {
		t.Errorf("the handoff: %v\n%s", err, b)
	}
	if t.Failed() {
		b, _ := os.ReadFile(filepath.Join(project, ".claude", "logs", "events.jsonl"))
		t.Logf("events.jsonl:\n%s", b)
	}
	if out := run("git", "status", "--porcelain"); strings.Contains(out, ".claude") {
		t.Errorf("git status shows our logs as the user's work:\n%s", out)
	}
	run(hooksBin, "--agent", "droid", "uninstall")
	if b, err := os.ReadFile(filepath.Join(project, ".factory", "settings.json")); err == nil {
		t.Errorf("uninstall left the settings install created:\n%s", b)
	}
}

// With --long-running, Droid's Stop runs the long-running checks: an
// answer that leaves a required file missing is held once, and the reason
// is what the model gets next.
func TestDroidStopIsHeldOnceByTheLongRunningChecks(t *testing.T) {
	srv := fakechat.New(fakechat.Text("Done."), fakechat.Text("Done, really."))
	defer srv.Close()
	project, run, droid := droidProject(t, srv)
	addFeatureList(project, run)
	run(hooksBin, "install", "--agent", "droid", "--long-running")
	droid("build the next feature")
	blockedOnce(t, mainDroidRequests(srv, 0))
}
