//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	codexinstall "github.com/session-hooks/session-hooks/agent/codex/install"
	"github.com/session-hooks/session-hooks/e2e/fakeresponses"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// codexVersion is the Codex CLI release the suite pins; the fixtures in
// testdata/codex-0.169.0 were recorded from it.
var codexVersion = versionOf("SESSION_HOOKS_E2E_CODEX", "0.169.0")

// requireCodex is the pinned Codex CLI, installed with npm on first use.
func requireCodex(t *testing.T) string {
	t.Helper()
	return requireNPM(t, "Codex CLI", "@openai/codex", codexVersion, "codex")
}

// A Codex session wired by `install --agent codex` alone, with no bypass
// flag, gets the brief in its first request and the recovery quoting the
// user's request in the request after an automatic compaction; uninstall then removes exactly ours, and a hook
// the user added after ours stays trusted.
func TestCodexSessionWiredByInstallGetsTheRecovery(t *testing.T) {
	codex := requireCodex(t)
	srv := fakeresponses.New(
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "I will run the tests."},
			{Tool: "exec_command", Arguments: `{"cmd":"echo FAIL parser_test; exit 3"}`}}},
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "The parser test fails; looking at the lexer."},
			{Tool: "exec_command", Arguments: `{"cmd":"echo lexer"}`}}, InputTokens: 9000},
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "The lexer is the cause."}}, InputTokens: 9000},
	)
	defer srv.Close()
	root := t.TempDir()
	home, project := filepath.Join(root, "codex-home"), filepath.Join(root, "project")
	os.MkdirAll(home, 0o700)
	srv.Truth = func() []byte { return readTruth(project, typedIn(project)) }
	defer func() { auditBodies(t, srv.Requests(), srv.Truths()) }()
	run := func(dir string, env []string, name string, args ...string) string {
		t.Helper()
		if name == codex && len(args) > 0 {
			typeIn(project, args[len(args)-1:]) // codex exec takes the prompt last
		}
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append([]string{"CODEX_HOME=" + home, "FAKE_API_KEY=x",
			"PATH=" + filepath.Dir(codex) + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	os.MkdirAll(project, 0o755)
	run(project, nil, "git", "init", "-q", "-b", "main")
	run(project, nil, "git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "Start")
	config := fmt.Sprintf("model_provider = \"fake\"\nmodel = \"gpt-5\"\n\n[model_providers.fake]\nname = \"fake\"\n"+
		"base_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_API_KEY\"\n", srv.URL)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600)
	theirs := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":5}]}]}}`
	os.WriteFile(filepath.Join(home, "hooks.json"), []byte(theirs), 0o600)

	out := run(project, nil, hooksBin, "--agent", "codex", "install")
	if !strings.Contains(out, "Codex trusts the 4 hooks of session-hooks") {
		t.Fatalf("install:\n%s", out)
	}
	// The logs stay out of git status, as Claude Code's do: `?? .claude/`
	// would read as the user's work.
	if b, _ := os.ReadFile(filepath.Join(project, ".gitignore")); !strings.Contains(string(b), ".claude/logs/\n") {
		t.Errorf("install left .claude/logs out of .gitignore: %q", b)
	}
	if out := run(project, nil, hooksBin, "--agent", "codex", "status"); strings.Count(out, "[trusted]") != 4 || strings.Contains(out, "warning") {
		t.Errorf("status after install:\n%s", out)
	}
	if out := run(project, nil, hooksBin, "--agent", "codex", "doctor"); strings.Count(out, "\nok   ") != 4 || strings.Contains(out, "FAIL") {
		t.Errorf("doctor after install:\n%s", out)
	}
	run(project, nil, codex, "exec", "--skip-git-repo-check", "--json", "-c", "model_auto_compact_token_limit=5000",
		"fix the parser so that the tests pass")
	var after string
	reqs := srv.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[0]), "the repository, and what Codex CLI does not say of it") ||
		!strings.Contains(string(reqs[0]), "Start") {
		t.Errorf("the first request has no brief")
	}
	for i, r := range reqs {
		if fakeresponses.IsSummary(r) && i+1 < len(reqs) {
			after = string(reqs[i+1])
		}
	}
	if after == "" {
		t.Fatalf("no compaction among %d requests", len(reqs))
	}
	for _, want := range []string{"Pre-Compaction Context", "fix the parser so that the tests pass", "The parser test fails; looking at the lexer."} {
		if !strings.Contains(after, want) {
			t.Errorf("the request after the compaction has no %q", want)
		}
	}

	// The user adds a hook of their own after ours, and trusts it.
	hooksJSON := filepath.Join(home, "hooks.json")
	doc, _ := os.ReadFile(hooksJSON)
	mine := hookfile.Entry{Event: "SessionStart", Matcher: "startup", Command: "echo mine", Timeout: 5}
	res, err := hookfile.Install(doc, append(codexinstall.Entries(hooksBin, false), mine), "")
	if err != nil || !res.Changed {
		t.Fatalf("adding the user's hook: %v", err)
	}
	os.WriteFile(hooksJSON, res.JSON, 0o600)
	trusted := func() map[string]string {
		t.Helper()
		handlers, err := codexinstall.ListHandlers(context.Background(), codex, home, project)
		if err != nil {
			t.Fatal(err)
		}
		byCommand := map[string]string{}
		for _, h := range handlers {
			byCommand[h.Command] = h.TrustStatus
			if h.Command == "echo mine" && h.TrustStatus != "trusted" {
				cfg, _ := os.ReadFile(filepath.Join(home, "config.toml"))
				os.WriteFile(filepath.Join(home, "config.toml"), codexinstall.SetTrust(cfg, map[string]string{h.Key: h.CurrentHash}, []string{h.Key}), 0o600)
			}
		}
		return byCommand
	}
	trusted()
	if got := trusted()["echo mine"]; got != "trusted" {
		t.Fatalf("the user's hook is %q before uninstall", got)
	}
	withTheirs, _ := os.ReadFile(filepath.Join(home, "config.toml"))

	run(project, nil, hooksBin, "--agent", "codex", "uninstall")
	left, _ := os.ReadFile(hooksJSON)
	wantDoc, _ := hookfile.Uninstall(res.JSON, "")
	if string(left) != string(wantDoc.JSON) || !strings.Contains(string(left), "echo mine") || !strings.Contains(string(left), `"Stop"`) {
		t.Errorf("uninstall left hooks.json as:\n%s", left)
	}
	status := trusted()
	if len(status) != 2 || status["echo mine"] != "trusted" {
		t.Errorf("after uninstall Codex lists %v: the user's hook must stay, trusted", status)
	}
	if cfg, _ := os.ReadFile(filepath.Join(home, "config.toml")); !strings.HasPrefix(string(cfg), config) || strings.Count(string(cfg), "[hooks.state.") != 1 {
		t.Errorf("config.toml after uninstall:\n%s\n(before:\n%s)", cfg, withTheirs)
	}

	// A Codex home with no hooks.json gets none back from uninstall.
	fresh := filepath.Join(root, "codex-home-2")
	os.MkdirAll(fresh, 0o700)
	os.WriteFile(filepath.Join(fresh, "config.toml"), []byte(config), 0o600)
	run(project, []string{"CODEX_HOME=" + fresh}, hooksBin, "--agent", "codex", "install", "--no-gitignore")
	run(project, []string{"CODEX_HOME=" + fresh}, hooksBin, "--agent", "codex", "uninstall")
	if b, err := os.ReadFile(filepath.Join(fresh, "hooks.json")); err == nil {
		t.Errorf("uninstall left the hooks.json install created: %q", b)
	}
}

// With --long-running, Codex's Stop runs the long-running checks: a stop
// that leaves a required file missing is blocked once (Codex trusts the
// Stop entry as it does the others), and the reason reaches the model in
// the next request.
func TestCodexStopIsBlockedOnceByTheLongRunningChecks(t *testing.T) {
	codex := requireCodex(t)
	srv := fakeresponses.New(
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "Done."}}},
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "Done, really."}}},
	)
	defer srv.Close()
	project, run := codexIn(t, codex, srv.URL)
	addFeatureList(project, run)
	if out := run(hooksBin, "install", "--agent", "codex", "--long-running"); !strings.Contains(out, "Codex trusts the 5 hooks of session-hooks") {
		t.Fatalf("install:\n%s", out)
	}
	run(codex, "exec", "--skip-git-repo-check", "--json", "build the next feature")
	reqs := srv.Requests()
	var bodies []string
	for _, r := range reqs {
		bodies = append(bodies, string(r))
	}
	blockedOnce(t, bodies)
}

// codexIn makes a Codex home whose config.toml points at the fake
// Responses API at url, and a git project with one commit; run runs a
// command in the project with that home, codex on PATH.
func codexIn(t *testing.T, codex, url string) (project string, run func(string, ...string) string) {
	t.Helper()
	root := t.TempDir()
	home, project := filepath.Join(root, "codex-home"), filepath.Join(root, "project")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(project, 0o755)
	run = gitProject(t, project, codex, false, "CODEX_HOME="+home, "FAKE_API_KEY=x")
	config := fmt.Sprintf("model_provider = \"fake\"\nmodel = \"gpt-5\"\n\n[model_providers.fake]\nname = \"fake\"\n"+
		"base_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_API_KEY\"\n", url)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600)
	return project, run
}
