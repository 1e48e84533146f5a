//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/e2e/fakegemini"
)

// geminiVersion is the Gemini CLI release the suite pins.
var geminiVersion = versionOf("SESSION_HOOKS_E2E_GEMINI", "0.61.0")

// requireGemini is the pinned Gemini CLI, installed with npm on first use.
func requireGemini(t *testing.T) string {
	t.Helper()
	return requireNPM(t, "Gemini CLI", "@google/gemini-cli", geminiVersion, "gemini")
}

// geminiProject is a home with the user's settings and a git project with
// one commit (and the project's own settings, unless ""), wired by
// `install --agent gemini`; run runs a command there against srv. A
// project's hooks run in a folder the user trusts (here by
// GEMINI_CLI_TRUST_WORKSPACE; --skip-trust alone runs none).
func geminiProject(t *testing.T, srv *fakegemini.Server, user, projectSettings string) (string, func(string, ...string) string) {
	t.Helper()
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.MkdirAll(filepath.Join(project, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(user), 0o600)
	if projectSettings != "" {
		os.WriteFile(filepath.Join(project, ".gemini", "settings.json"), []byte(projectSettings), 0o644)
	}
	srv.Truth = func() []byte { return readTruth(project, typedIn(project)) }
	t.Cleanup(func() { // the claims audit of every request
		var bodies, truths [][]byte
		for _, r := range srv.Requests() {
			bodies, truths = append(bodies, r.Body), append(truths, r.Truth)
		}
		auditBodies(t, bodies, truths)
	})
	// session-hooks on PATH, as installed: the project's entries run it by name.
	run := gitProject(t, project, hooksBin, true, "HOME="+home, "GEMINI_API_KEY=x", "GOOGLE_GEMINI_BASE_URL="+srv.URL, "GEMINI_CLI_TRUST_WORKSPACE=true")
	run(hooksBin, "--agent", "gemini", "install")
	return project, run
}

// A Gemini CLI session wired by `install --agent gemini` gets the brief,
// with the repository Gemini does not describe, in its first request; the
// next session gets the previous one's handoff, quoting its request; and
// uninstall gives back the project's settings byte for byte.
func TestGeminiSessionsGetTheBriefAndTheHandoff(t *testing.T) {
	gemini := requireGemini(t)
	srv := fakegemini.New(fakegemini.Reply{Text: "I will look at the parser."}, fakegemini.Reply{Text: "Going on."})
	defer srv.Close()
	theirs := "{\n  // mine\n  \"ui\": {\"theme\": \"Default\"}\n}\n"
	project, run := geminiProject(t, srv, `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`, theirs)
	projectSettings := filepath.Join(project, ".gemini", "settings.json")
	if out := run(hooksBin, "--agent", "gemini", "doctor"); strings.Count(out, "\nok   ") != 4 || strings.Contains(out, "FAIL") {
		t.Errorf("doctor after install:\n%s", out)
	}

	mainRequests := func() []string {
		var out []string
		for _, r := range srv.Requests() {
			if strings.HasSuffix(r.Path, ":streamGenerateContent") {
				out = append(out, string(r.Body))
			}
		}
		return out
	}
	run(gemini, "-p", "fix the parser so that the tests pass", "--yolo", "-o", "json")
	first := mainRequests()
	if len(first) == 0 || !strings.Contains(first[0], "what Gemini CLI does not say of it") || !strings.Contains(first[0], "Start") {
		t.Fatalf("the first request has no brief")
	}
	run(gemini, "-p", "go on", "--yolo", "-o", "json")
	second := mainRequests()[len(first):]
	if len(second) == 0 || !strings.Contains(second[0], "fix the parser so that the tests pass") || !strings.Contains(second[0], "previous session") {
		t.Errorf("the next session's first request has no handoff quoting the request")
	}

	run(hooksBin, "--agent", "gemini", "uninstall")
	if b, _ := os.ReadFile(projectSettings); string(b) != theirs {
		t.Errorf("uninstall left the project's settings as:\n%s\nwant:\n%s", b, theirs)
	}
}

// Gemini CLI's --resume rebuilds the conversation without any message
// that begins with a hook's context, and `gemini -p` puts a start's
// context before the prompt, in one message: the user's request went with
// it. The brief rides the first prompt's hook instead, after the prompt:
// the resumed conversation holds the request and the brief, once each.
func TestGeminiResumeKeepsTheRequestAndTheBrief(t *testing.T) {
	gemini := requireGemini(t)
	srv := fakegemini.New(fakegemini.Reply{Text: "I will look at the parser."}, fakegemini.Reply{Text: "Going on."})
	defer srv.Close()
	_, run := geminiProject(t, srv, `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`, "")
	const request = "fix the parser so that the tests pass"
	run(gemini, "-p", request, "--yolo", "-o", "json")
	seen := len(srv.Requests())
	run(gemini, "--resume", "latest", "-p", "go on", "--yolo", "-o", "json")
	var resumed []string
	for _, r := range srv.Requests()[seen:] {
		if strings.HasSuffix(r.Path, ":streamGenerateContent") {
			resumed = append(resumed, string(r.Body))
		}
	}
	if len(resumed) == 0 {
		t.Fatal("the resumed run made no request")
	}
	for what, s := range map[string]string{"the session's request": request, "the brief": "what Gemini CLI does not say of it"} {
		if n := strings.Count(resumed[0], s); n != 1 {
			t.Errorf("the resumed run's request holds %s %d times, want once:\n%.3000s", what, n, resumed[0])
		}
	}
}

// A Gemini CLI session that compresses its chat mid-turn gets the
// recovery, quoting the request, with the next prompt (here the next
// run's, a resume), and only once: PreCompress ran before every request,
// and kept the snapshot taken before the compression.
func TestGeminiCompressionIsRecoveredOnceOnTheNextPrompt(t *testing.T) {
	gemini := requireGemini(t)
	const request = "fix the parser so that the tests pass"
	srv := fakegemini.New(fakegemini.Reply{Text: "I will look at the parser."},
		// The shell call reports a prompt past the threshold: Gemini CLI
		// compresses the chat before the request that follows it.
		fakegemini.Reply{Call: &fakegemini.Call{Name: "run_shell_command", Args: map[string]any{"command": "go test ./..."}}, InputTokens: 900000},
		fakegemini.Reply{Text: "The tests pass."},
		fakegemini.Reply{Text: "Going on."},
		fakegemini.Reply{Text: "Still going."})
	defer srv.Close()
	_, run := geminiProject(t, srv, `{"security":{"auth":{"selectedType":"gemini-api-key"}},"model":{"compressionThreshold":0.2}}`, "")

	seen := 0
	next := func() (main []string, summaries int) {
		all := srv.Requests()
		for _, r := range all[seen:] {
			switch {
			case strings.HasSuffix(r.Path, ":streamGenerateContent"):
				main = append(main, string(r.Body))
			case fakegemini.IsSummaryRequest(r.Body):
				summaries++
			}
		}
		seen = len(all)
		return main, summaries
	}
	const recovered = "Pre-Compaction Context"
	run(gemini, "-p", "look at the parser", "--yolo", "-o", "json")
	next()
	run(gemini, "--resume", "latest", "-p", request, "--yolo", "-o", "json")
	main, summaries := next()
	if summaries == 0 || len(main) < 2 {
		t.Fatalf("Gemini CLI did not compress the chat (%d summary requests, %d main requests)", summaries, len(main))
	}
	for _, body := range main {
		if strings.Contains(body, recovered) {
			t.Errorf("a request before the next prompt holds a recovery:\n%.2000s", body)
		}
	}
	run(gemini, "--resume", "latest", "-p", "go on", "--yolo", "-o", "json")
	main, _ = next()
	if len(main) == 0 || !strings.Contains(main[0], recovered) || !strings.Contains(main[0], request) {
		t.Fatalf("the first request after the compression has no recovery quoting the request:\n%.4000s", strings.Join(main, "\n"))
	}
	if n := strings.Count(main[0], recovered); n != 1 {
		t.Errorf("the recovery is in the request %d times", n)
	}
	run(gemini, "--resume", "latest", "-p", "and now?", "--yolo", "-o", "json")
	main, _ = next()
	if len(main) == 0 || strings.Count(main[0], recovered) != 1 {
		t.Errorf("the next prompt's request holds the recovery %d times, want the one already in the history", strings.Count(strings.Join(main, ""), recovered))
	}
}

// With --long-running, Gemini CLI's AfterAgent runs the long-running
// checks: an answer that leaves a required file missing is rejected once,
// and the reason is the next prompt.
func TestGeminiAfterAgentIsBlockedOnceByTheLongRunningChecks(t *testing.T) {
	gemini := requireGemini(t)
	srv := fakegemini.New(fakegemini.Reply{Text: "Done."}, fakegemini.Reply{Text: "Done, really."})
	defer srv.Close()
	project, run := geminiProject(t, srv, `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`, "")
	addFeatureList(project, run)
	run(hooksBin, "install", "--agent", "gemini", "--long-running")
	run(gemini, "-p", "build the next feature", "--yolo", "-o", "json")
	var main []string
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, ":streamGenerateContent") {
			main = append(main, string(r.Body))
		}
	}
	blockedOnce(t, main)
}
