// Command record drives the real Claude Code binary against the fake Messages
// API and saves what our hooks receive: every hook payload (stdin) and the
// session transcripts. Those files are the fixtures under testdata/.
//
//	go run ./e2e/record -claude PATH/TO/claude -out testdata/claude-2.1.330
//
// The hooks it wires only copy their stdin to a file, so the fixtures show
// Claude Code's own behaviour, not ours.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/session-hooks/session-hooks/e2e/fakeapi"
	"github.com/tidwall/gjson"
)

func main() {
	claude := flag.String("claude", "", "path to the claude binary")
	out := flag.String("out", "testdata/claude", "where to write the fixtures")
	flag.Parse()
	if *claude == "" {
		log.Fatal("record: -claude is required")
	}
	if err := record(*claude, *out); err != nil {
		log.Fatal(err)
	}
}

func record(claude, out string) error {
	scratch, err := os.MkdirTemp("", "record-")
	if err != nil {
		return err
	}
	if os.Getenv("RECORD_KEEP") == "" {
		defer os.RemoveAll(scratch)
	} else {
		log.Printf("record: keeping %s", scratch)
	}
	proj := filepath.Join(scratch, "proj")
	payloads := filepath.Join(scratch, "payloads")
	for _, d := range []string{proj, payloads, filepath.Join(scratch, "config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := gitInit(proj); err != nil {
		return err
	}
	settings := filepath.Join(scratch, "settings.json")
	if err := os.WriteFile(settings, []byte(settingsJSON(payloads)), 0o644); err != nil {
		return err
	}

	api := fakeapi.New("Summary: the user asked for notes.txt; it was written and the todo list updated.",
		fakeapi.Reply{Blocks: []fakeapi.Block{{Text: "I will start by planning the work on notes.txt."},
			{Tool: "TaskCreate", Input: map[string]any{"subject": "Write notes.txt", "description": "Write the first notes", "activeForm": "Writing notes.txt"}}}},
		fakeapi.Tool("TaskCreate", map[string]any{"subject": "Commit the notes", "description": "Commit notes.txt", "activeForm": "Committing the notes"}),
		fakeapi.Tool("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
		fakeapi.Tool("Write", map[string]any{"file_path": filepath.Join(proj, "notes.txt"), "content": "first notes\n"}),
		fakeapi.Tool("Bash", map[string]any{"command": "git status --short", "description": "Show status"}),
		fakeapi.Text("notes.txt is written; next I will commit it."),
	)
	defer api.Close()
	env := append(os.Environ(), "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_API_KEY=sk-ant-test",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CONFIG_DIR="+filepath.Join(scratch, "config"))
	run := func(args ...string) (string, error) {
		args = append(args, "--settings", settings, "--allowedTools", "Bash", "Write", "TaskCreate", "TaskUpdate",
			"--output-format", "json")
		cmd := exec.Command(claude, args...)
		cmd.Dir, cmd.Env = proj, env
		b, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("claude %v: %v\n%s", args, err, b)
		}
		return gjson.GetBytes(lastJSONLine(b), "session_id").String(), nil
	}

	id, err := run("-p", "Please write notes.txt with my first notes.")
	if err != nil {
		return err
	}
	if _, err := run("-p", "/compact", "--resume", id); err != nil {
		return err
	}
	if _, err := run("-p", "Carry on.", "--resume", id); err != nil {
		return err
	}
	if _, err := run("-p", "/clear", "--resume", id); err != nil {
		return err
	}
	return save(payloads, filepath.Join(scratch, "config"), out)
}

func lastJSONLine(b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return []byte(lines[len(lines)-1])
}

func gitInit(dir string) error {
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=Rec", "-c", "user.email=rec@example.com", "commit", "-q", "--allow-empty", "-m", "Initial commit"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, b)
		}
	}
	return nil
}

// settingsJSON wires every event we handle to a command that saves stdin,
// named by arrival order and event.
func settingsJSON(dir string) string {
	hook := func(name string) string {
		return fmt.Sprintf(`{"type":"command","command":"cat > %s/$(date +%%s%%N)-%s.json","timeout":30}`, dir, name)
	}
	return `{"hooks":{` +
		`"SessionStart":[{"matcher":"","hooks":[` + hook("SessionStart") + `]}],` +
		`"PreCompact":[{"matcher":"","hooks":[` + hook("PreCompact") + `]}],` +
		`"SessionEnd":[{"matcher":"","hooks":[` + hook("SessionEnd") + `]}],` +
		`"Stop":[{"matcher":"","hooks":[` + hook("Stop") + `]}],` +
		`"PostToolUse":[{"matcher":"Write|Bash","hooks":[` + hook("PostToolUse") + `]}]}}`
}

// save copies payloads (numbered in arrival order), transcripts and task
// lists (config/tasks/<session id>/N.json) into out.
func save(payloads, config, out string) error {
	if err := os.MkdirAll(filepath.Join(out, "payloads"), 0o755); err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(payloads, "*.json"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	for i, n := range names {
		event := strings.TrimSuffix(strings.SplitN(filepath.Base(n), "-", 2)[1], ".json")
		b, err := os.ReadFile(n)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, "payloads", fmt.Sprintf("%02d-%s.json", i+1, event))
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	transcripts, err := filepath.Glob(filepath.Join(config, "projects", "*", "*.jsonl"))
	if err != nil {
		return err
	}
	tasks, err := filepath.Glob(filepath.Join(config, "tasks", "*", "*.json"))
	if err != nil {
		return err
	}
	for _, f := range append(transcripts, tasks...) {
		dst := filepath.Join(out, filepath.Base(f))
		if strings.HasSuffix(f, ".json") {
			dst = filepath.Join(out, "tasks", filepath.Base(filepath.Dir(f)), filepath.Base(f))
		}
		if err := copyFile(f, dst); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
