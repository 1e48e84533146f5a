// Command recordcopilot records real GitHub Copilot CLI sessions, offline
// against the fake Anthropic API (e2e/fakeapi), for the events reader's
// tests and the adapter's payload tests: hooks wired in the repository's
// .github/hooks/ save their stdin (payloads/<event>.json, numbered when an
// event fires again), the session's events.jsonl is copied to -out, and
// with -requests, each request the model received is kept there
// (NN-kind.json), to see what reached the model.
//
//	go run ./e2e/recordcopilot -copilot "$(npm prefix)/node_modules/.bin/copilot" -out testdata/copilot-1.0.102
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/e2e/fakeapi"
)

// events are the hooks Copilot CLI fires that the recorder wires.
var events = []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "preCompact", "agentStop", "subagentStop", "sessionEnd", "errorOccurred"}

func main() {
	copilot := flag.String("copilot", "copilot", "the copilot binary")
	out := flag.String("out", "testdata/copilot-1.0.102", "where the records go")
	requests := flag.String("requests", "", "where the requests the model received go (none when empty)")
	flag.Parse()
	if err := record(*copilot, *out, *requests); err != nil {
		fmt.Fprintln(os.Stderr, "recordcopilot:", err)
		os.Exit(1)
	}
}

func record(copilot, out, requests string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "payloads"), 0o755); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "recordcopilot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	home, project := filepath.Join(scratch, "home"), filepath.Join(scratch, "project")
	srv := fakeapi.New("The user asked to fix the parser; the tests were run.",
		fakeapi.Tool("create", map[string]any{"path": filepath.Join(project, "parser.go"), "file_text": "package parser\n"}),
		fakeapi.Tool("bash", map[string]any{"command": "echo FAIL parser_test.go:12: want 3, got 4; exit 1", "description": "run the tests"}),
		fakeapi.Text("I will look at the parser."),
		fakeapi.Tool("edit", map[string]any{"path": filepath.Join(project, "parser.go"), "old_str": "package parser", "new_str": "package parser // fixed"}),
		fakeapi.Text("The tests pass."))
	defer srv.Close()
	os.MkdirAll(home, 0o700)
	os.MkdirAll(filepath.Join(project, ".github", "hooks"), 0o755)
	if err := os.WriteFile(filepath.Join(project, ".github", "hooks", "record.json"), []byte(hooksFile(filepath.Join(out, "payloads"))), 0o644); err != nil {
		return err
	}
	run := func(args ...string) error {
		cmd := exec.Command(copilot, args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "HOME="+home, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_TYPE=anthropic",
			"COPILOT_PROVIDER_BASE_URL="+srv.URL, "COPILOT_PROVIDER_API_KEY=x", "COPILOT_MODEL=claude-sonnet-4", "COPILOT_ALLOW_ALL=true")
		b, err := cmd.CombinedOutput()
		fmt.Fprintf(os.Stderr, "$ copilot %s\n%s\n", strings.Join(args, " "), b)
		if err != nil {
			return fmt.Errorf("copilot %s: %v", strings.Join(args, " "), err)
		}
		return nil
	}
	git := exec.Command("git", "init", "-q", "-b", "main", project)
	if b, err := git.CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v\n%s", err, b)
	}
	if err := run("-p", "fix the parser so that the tests pass", "--allow-all-tools"); err != nil {
		return err
	}
	if err := run("--continue", "-p", "/compact", "--allow-all-tools"); err != nil {
		return err
	}
	if err := run("--continue", "-p", "go on", "--allow-all-tools"); err != nil {
		return err
	}
	if requests != "" {
		os.MkdirAll(requests, 0o755)
		for i, r := range srv.Requests() {
			os.WriteFile(filepath.Join(requests, fmt.Sprintf("%02d-%s.json", i, r.Kind())), r.Body, 0o644)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(home, ".copilot", "session-state", "*", "events.jsonl"))
	if len(logs) != 1 {
		return fmt.Errorf("%d events.jsonl recorded, want 1", len(logs))
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "events.jsonl"), b, 0o644)
}

// hooksFile wires every event to a command that saves its stdin under
// dir, numbered, and answers sessionStart and userPromptSubmitted with a
// context, to see where it reaches the model.
func hooksFile(dir string) string {
	var entries []string
	for _, e := range events {
		cmd := `n=0; while [ -e ` + dir + `/` + e + `-$n.json ]; do n=$((n+1)); done; cat > ` + dir + `/` + e + `-$n.json`
		switch e {
		case "sessionStart", "userPromptSubmitted":
			cmd += `; echo "{\"additionalContext\":\"what the ` + e + ` hook said, run $n\"}"`
		}
		entries = append(entries, fmt.Sprintf(`%q:[{"type":"command","bash":%q,"timeoutSec":10}]`, e, cmd))
	}
	return `{"version":1,"hooks":{` + strings.Join(entries, ",") + `}}`
}
