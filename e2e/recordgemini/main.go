// Command recordgemini records real Gemini CLI sessions, offline against
// the fake Gemini API (e2e/fakegemini), for the chat reader's tests: a
// request answered, with a SessionStart hook whose context Gemini CLI
// prepends to the request (chat.jsonl); and a session resumed, whose
// second request's shell call reports a prompt past the compression
// threshold, so that Gemini CLI compresses the chat before its next
// request (compressed.jsonl). It copies the chats to -out, and the stdin
// of each hook (payloads/<Event>.json), saved by hooks that save it.
//
//	go run ./e2e/recordgemini -gemini "$(npm prefix)/node_modules/.bin/gemini" -out testdata/gemini-0.61.0
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/session-hooks/session-hooks/e2e/fakegemini"
)

func main() {
	gemini := flag.String("gemini", "gemini", "the gemini binary")
	out := flag.String("out", "testdata/gemini-0.61.0", "where the chat goes")
	flag.Parse()
	if err := record(*gemini, *out); err != nil {
		fmt.Fprintln(os.Stderr, "recordgemini:", err)
		os.Exit(1)
	}
}

func record(gemini, out string) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	payloads := filepath.Join(out, "payloads")
	if err := os.MkdirAll(payloads, 0o755); err != nil {
		return err
	}
	save := func(event, context string) string {
		cmd := "cat > " + filepath.Join(payloads, event+".json")
		if context != "" {
			cmd += `; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"` + event + `\",\"additionalContext\":\"` + context + `\"}}'`
		}
		return `{"hooks":[{"type":"command","command":"` + cmd + `","timeout":10000}]}`
	}
	hooks := `"hooks":{"SessionStart":[` + save("SessionStart", "what the hook said") + `],"BeforeAgent":[` + save("BeforeAgent", "") +
		`],"PreCompress":[` + save("PreCompress", "") + `],"SessionEnd":[` + save("SessionEnd", "") + `]}`
	plain := fakegemini.New(fakegemini.Reply{Text: "I will look at the parser."})
	defer plain.Close()
	if err := session(gemini, plain, hooks, filepath.Join(out, "chat.jsonl"), []string{"-p", "fix the parser so that the tests pass"}); err != nil {
		return err
	}
	compressing := fakegemini.New(fakegemini.Reply{Text: "I will look at the parser."},
		fakegemini.Reply{Call: &fakegemini.Call{Name: "run_shell_command", Args: map[string]any{"command": "go test ./..."}}, InputTokens: 900000},
		fakegemini.Reply{Text: "The tests pass."})
	defer compressing.Close()
	return session(gemini, compressing, `"model":{"compressionThreshold":0.2},`+hooks, filepath.Join(out, "compressed.jsonl"),
		[]string{"-p", "look at the parser"}, []string{"--resume", "latest", "-p", "fix the parser so that the tests pass"})
}

// session runs gemini once per argument list in a new home and project,
// and copies the chat it wrote to dst.
func session(gemini string, srv *fakegemini.Server, settings, dst string, runs ...[]string) error {
	scratch, err := os.MkdirTemp("", "recordgemini-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	home, project := filepath.Join(scratch, "home"), filepath.Join(scratch, "project")
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
	os.MkdirAll(project, 0o755)
	settings = `{"security":{"auth":{"selectedType":"gemini-api-key"}},` + settings + `}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o600); err != nil {
		return err
	}
	for _, args := range runs {
		cmd := exec.Command(gemini, append(args, "--yolo", "-o", "json")...)
		cmd.Env = append(os.Environ(), "HOME="+home, "GEMINI_API_KEY=x", "GOOGLE_GEMINI_BASE_URL="+srv.URL, "GEMINI_CLI_TRUST_WORKSPACE=true")
		cmd.Dir = project
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("gemini: %v\n%s", err, b)
		}
	}
	chats, _ := filepath.Glob(filepath.Join(home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"))
	if len(chats) != 1 {
		return fmt.Errorf("%d chats recorded, want 1", len(chats))
	}
	b, err := os.ReadFile(chats[0])
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
