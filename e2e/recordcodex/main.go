// Command recordcodex records a real Codex CLI session, offline against
// the fake Responses API (e2e/fakeresponses), for the rollout reader's
// tests: a request, a failing command, a second command, an automatic
// compaction, and a last answer. It copies the session's rollout to -out,
// and the stdin of each hook (payloads/<Event>-<source>.json), saved by
// hooks that only save it (trusted with --dangerously-bypass-hook-trust:
// the recorder runs nothing else).
//
//	go run ./e2e/recordcodex -codex "$(npm prefix)/node_modules/.bin/codex" -out testdata/codex-0.169.0
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/session-hooks/session-hooks/e2e/fakeresponses"
)

func main() {
	codex := flag.String("codex", "codex", "the codex binary")
	out := flag.String("out", "testdata/codex-0.169.0", "where the rollout goes")
	flag.Parse()
	if err := record(*codex, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recordcodex:", err)
		os.Exit(1)
	}
}

func record(codex, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	srv := fakeresponses.New(
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "I will run the tests."},
			{Tool: "exec_command", Arguments: `{"cmd":"echo FAIL parser_test; exit 3"}`}}},
		// Over the compaction limit below: Codex compacts before the next request.
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "The parser test fails; writing notes."},
			{Tool: "exec_command", Arguments: `{"cmd":"echo hi > notes.txt"}`}}, InputTokens: 9000},
		fakeresponses.Reply{Items: []fakeresponses.Item{{Text: "Notes written; the parser still fails."}}, InputTokens: 9000},
	)
	defer srv.Close()
	scratch, err := os.MkdirTemp("", "recordcodex-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	home, project := filepath.Join(scratch, "home"), filepath.Join(scratch, "project")
	os.MkdirAll(home, 0o700)
	os.MkdirAll(project, 0o755)
	config := fmt.Sprintf("model_provider = \"fake\"\nmodel = \"gpt-5\"\n\n[model_providers.fake]\nname = \"fake\"\n"+
		"base_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_API_KEY\"\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		return err
	}
	payloads := filepath.Join(out, "payloads")
	if err := os.MkdirAll(payloads, 0o755); err != nil {
		return err
	}
	save := func(name string) string {
		return fmt.Sprintf(`{"type":"command","command":"cat > %s","timeout":10}`, filepath.Join(payloads, name+".json"))
	}
	hooks := `{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[` + save("SessionStart-startup") + `]},` +
		`{"matcher":"compact","hooks":[` + save("SessionStart-compact") + `]}],` +
		`"PreCompact":[{"hooks":[` + save("PreCompact") + `]}],"PostCompact":[{"hooks":[` + save("PostCompact") + `]}],` +
		`"SessionEnd":[{"hooks":[` + save("SessionEnd") + `]}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(hooks), 0o600); err != nil {
		return err
	}
	cmd := exec.Command(codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "--json",
		"-c", "model_auto_compact_token_limit=5000", "fix the parser so that the tests pass")
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "FAKE_API_KEY=x")
	cmd.Dir = project
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("codex: %v\n%s", err, b)
	}
	rollouts, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(rollouts) != 1 {
		return fmt.Errorf("%d rollouts recorded, want 1", len(rollouts))
	}
	b, err := os.ReadFile(rollouts[0])
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "rollout-compact.jsonl"), b, 0o644)
}
