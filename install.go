package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/settings"
	"github.com/urfave/cli/v2"
)

// These commands are run by a person, not by Claude Code: they may fail,
// with a message saying what to do and a non-zero exit.

var scopes = []string{"project", "local", "user"}

// settingsPath is the file of a scope: the project's shared settings, its
// personal ones, or the user's.
func settingsPath(scope, project string) (string, error) {
	switch scope {
	case "project":
		return filepath.Join(project, ".claude", "settings.json"), nil
	case "local":
		return filepath.Join(project, ".claude", "settings.local.json"), nil
	case "user":
		if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			return filepath.Join(d, "settings.json"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".claude", "settings.json"), nil
	}
	return "", fmt.Errorf("unknown scope %q: use project, local or user", scope)
}

// ourCommand is what the hooks run: --command, else this binary's path.
func ourCommand(custom string) (string, error) {
	if custom != "" {
		return custom, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return settings.ShellQuote(exe), nil
}

func cmdInstall(c *cli.Context, out io.Writer) error {
	project, path, err := scopeFile(c)
	if err != nil {
		return err
	}
	cmd, err := ourCommand(c.String("command"))
	if err != nil {
		return cli.Exit("session-hooks: cannot tell where this binary is ("+err.Error()+"); pass --command", 1)
	}
	old, existed, err := readSettings(path)
	if err != nil {
		return err
	}
	res, err := settings.Install(old, settings.Desired(cmd, c.Bool("long-running")), c.String("command"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("session-hooks: cannot install into %s: %v. The file is left untouched.", path, err), 1)
	}
	if !res.Changed {
		fmt.Fprintf(out, "session-hooks is already installed in %s; nothing changed.\n", path)
	} else {
		if err := saveSettings(path, old, existed, res.JSON); err != nil {
			return err
		}
		fmt.Fprintf(out, "Installed session-hooks (%s) into %s.\n", cmd, path)
		if existed {
			fmt.Fprintf(out, "The previous version is kept as %s.bak.\n", path)
		}
		if res.Migrated > 0 {
			fmt.Fprintf(out, "Replaced %d entr%s of the Node script (session-hooks.mjs).\n", res.Migrated, plural(res.Migrated, "y", "ies"))
		}
	}
	if c.String("scope") != "user" && !c.Bool("no-gitignore") {
		if added, err := ignoreLogs(project); err != nil {
			fmt.Fprintf(out, "Could not add .claude/logs/ to .gitignore: %v\n", err)
		} else if added {
			fmt.Fprintln(out, "Added .claude/logs/ to .gitignore.")
		}
	}
	return nil
}

func cmdUninstall(c *cli.Context, out io.Writer) error {
	_, path, err := scopeFile(c)
	if err != nil {
		return err
	}
	old, existed, err := readSettings(path)
	if err != nil {
		return err
	}
	if !existed {
		fmt.Fprintf(out, "%s does not exist; nothing to uninstall.\n", path)
		return nil
	}
	res, err := settings.Uninstall(old, c.String("command"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("session-hooks: cannot uninstall from %s: %v. The file is left untouched.", path, err), 1)
	}
	if !res.Changed {
		fmt.Fprintf(out, "No session-hooks entries in %s; nothing changed.\n", path)
		return nil
	}
	if err := saveSettings(path, old, existed, res.JSON); err != nil {
		return err
	}
	fmt.Fprintf(out, "Removed %d session-hooks entr%s from %s (the previous version is kept as %s.bak).\n",
		res.Removed, plural(res.Removed, "y", "ies"), path, path)
	return nil
}

func scopeFile(c *cli.Context) (project, path string, err error) {
	project, err = os.Getwd()
	if err != nil {
		return "", "", cli.Exit("session-hooks: "+err.Error(), 1)
	}
	path, err = settingsPath(c.String("scope"), project)
	if err != nil {
		return "", "", cli.Exit("session-hooks: "+err.Error(), 2)
	}
	return project, path, nil
}

func readSettings(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, cli.Exit("session-hooks: cannot read "+path+": "+err.Error(), 1)
	}
	return b, true, nil
}

// saveSettings keeps the old file as .bak, then replaces it atomically,
// keeping its permissions.
func saveSettings(path string, old []byte, existed bool, js []byte) error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return cli.Exit("session-hooks: "+err.Error(), 1)
	}
	if existed {
		if err := writeAtomic(path+".bak", old, mode); err != nil {
			return cli.Exit("session-hooks: cannot keep a backup ("+err.Error()+"); nothing changed", 1)
		}
	}
	if err := writeAtomic(path, append(bytes.TrimRight(js, "\n"), '\n'), mode); err != nil {
		return cli.Exit("session-hooks: cannot write "+path+": "+err.Error(), 1)
	}
	return nil
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// ignoreLogs adds .claude/logs/ to the project's .gitignore unless an
// entry already covers it.
func ignoreLogs(project string) (bool, error) {
	path := filepath.Join(project, ".gitignore")
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(line) {
		case ".claude/logs/", ".claude/logs", "/.claude/logs/", "/.claude/logs", ".claude/", ".claude", "/.claude/":
			return false, nil
		}
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	return true, writeAtomic(path, append(b, ".claude/logs/\n"...), 0o644)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// wiredHook is a hook found in a scope's settings.
type wiredHook struct {
	settings.Hook
	scope string
}

// allWired reads every scope's settings, saying which could not be read.
func allWired(project string, out io.Writer) []wiredHook {
	var all []wiredHook
	for _, scope := range scopes {
		path, _ := settingsPath(scope, project)
		b, existed, err := readSettings(path)
		if err == nil && existed {
			var js []byte
			if js, err = settings.Parse(b); err == nil {
				for _, h := range settings.Wired(js) {
					all = append(all, wiredHook{h, scope})
				}
			}
		}
		switch {
		case err != nil:
			fmt.Fprintf(out, "%s (%s): unreadable: %v\n", scope, path, err)
		case !existed:
			fmt.Fprintf(out, "%s (%s): not present\n", scope, path)
		default:
			fmt.Fprintf(out, "%s (%s):\n", scope, path)
			for _, h := range all {
				if h.scope == scope {
					fmt.Fprintf(out, "  %s%s → %s (%s)\n", h.Event, matcherText(h.Matcher), h.Command, timeoutText(h.Hook))
				}
			}
		}
	}
	return all
}

func matcherText(m string) string {
	if m == "" {
		return ""
	}
	return " [" + m + "]"
}

func timeoutText(h settings.Hook) string {
	if !h.HasTimeout {
		return "no timeout"
	}
	return fmt.Sprintf("timeout %ds", h.Timeout)
}

func cmdStatus(c *cli.Context, out io.Writer) error {
	project, err := os.Getwd()
	if err != nil {
		return cli.Exit("session-hooks: "+err.Error(), 1)
	}
	all := allWired(project, out)
	var warnings []string
	seen := map[string]string{}
	wired := map[string]bool{}
	for _, h := range all {
		switch {
		case settings.IsNode(h.Command):
			warnings = append(warnings, fmt.Sprintf("%s still runs the Node script (%s): run session-hooks install --scope %s to replace it", h.scope, h.Command, h.scope))
		case settings.IsOurs(h.Command, c.String("command")):
			key := h.Event + " " + h.Command
			if where, dup := seen[key]; dup {
				warnings = append(warnings, fmt.Sprintf("%s → %s is wired twice (%s and %s)", h.Event, h.Command, where, h.scope))
			}
			seen[key] = h.scope
			wired[h.Event+" "+subcommand(h.Command)] = true
			if h.Event == "SessionEnd" && !h.HasTimeout {
				warnings = append(warnings, h.scope+": SessionEnd has no timeout: Claude Code cancels it after about 1.5 s; set one (install does)")
			}
			if _, err := exec.LookPath(settings.Program(h.Command)); err != nil {
				warnings = append(warnings, fmt.Sprintf("%s: %s does not exist or is not executable", h.scope, settings.Program(h.Command)))
			}
		}
	}
	for _, need := range []string{"SessionStart init", "SessionStart init --compact-recovery", "PreCompact pre-compact", "SessionEnd end"} {
		if !wired[need] {
			warnings = append(warnings, "no scope wires "+strings.Replace(need, " ", " → session-hooks ", 1))
		}
	}
	fmt.Fprintln(out)
	if len(warnings) == 0 {
		fmt.Fprintln(out, "All four session events are wired to session-hooks.")
	}
	for _, w := range dedupe(warnings) {
		fmt.Fprintln(out, "warning: "+w)
	}
	return nil
}

// subcommand is what follows the program in one of our commands.
func subcommand(cmd string) string {
	p := settings.Program(cmd)
	rest := strings.TrimSpace(cmd)
	if strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, `"`) {
		rest = strings.TrimSpace(rest[len(settings.ShellQuote(p)):])
	} else {
		rest = strings.TrimSpace(strings.TrimPrefix(rest, p))
	}
	return rest
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// cmdDoctor runs every wired event of ours against the current project
// with a synthetic payload, as Claude Code would, and checks the rest of
// what the hooks need.
func cmdDoctor(c *cli.Context, out io.Writer) error {
	project, err := os.Getwd()
	if err != nil {
		return cli.Exit("session-hooks: "+err.Error(), 1)
	}
	all := allWired(project, io.Discard)
	fmt.Fprintf(out, "Project: %s\n\n", project)
	ran := map[string]bool{}
	problems := 0
	for _, h := range all {
		if !settings.IsOurs(h.Command, c.String("command")) || ran[h.Command] {
			continue
		}
		ran[h.Command] = true
		limit := 600 * time.Second
		if h.Event == "SessionEnd" {
			limit = 1500 * time.Millisecond // Claude Code's own budget without a timeout
		}
		if h.HasTimeout {
			limit = time.Duration(h.Timeout) * time.Second
		}
		took, err := runWired(project, h)
		switch {
		case err != nil:
			problems++
			fmt.Fprintf(out, "FAIL %s → %s: %v\n", h.Event, h.Command, err)
		case took > limit:
			problems++
			fmt.Fprintf(out, "SLOW %s → %s: %s, over its %s timeout\n", h.Event, h.Command, logs.Duration(took), limit)
		default:
			fmt.Fprintf(out, "ok   %s → %s: %s (timeout %s)\n", h.Event, h.Command, logs.Duration(took), limit)
		}
	}
	if len(ran) == 0 {
		problems++
		fmt.Fprintln(out, "No event is wired to session-hooks: run session-hooks install.")
	}
	dir := logs.DirFor(project)
	if err := dir.Write(".doctor-check", []byte("x")); err != nil {
		problems++
		fmt.Fprintf(out, "\nLogs: %v\n", err)
	} else {
		os.Remove(filepath.Join(dir.Path, ".doctor-check"))
		fmt.Fprintf(out, "\nLogs: %s is writable\n", dir.Path)
	}
	fmt.Fprintf(out, "Transcripts: %s\n", transcriptsOf(project))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, engine := gitdiag.Run(ctx, project, []gitdiag.Probe{gitdiag.Branch})
	if res[0].Err != nil {
		fmt.Fprintf(out, "Git: %v\n", res[0].Err)
	} else {
		fmt.Fprintf(out, "Git engine: %s\n", engine)
	}
	if problems > 0 {
		return cli.Exit(fmt.Sprintf("\n%d problem(s) found.", problems), 1)
	}
	return nil
}

// runWired runs one wired command through /bin/sh, as Claude Code does,
// with a synthetic payload for its event.
func runWired(project string, h wiredHook) (time.Duration, error) {
	payload := map[string]any{"session_id": "session-hooks-doctor", "cwd": project, "hook_event_name": h.Event,
		"transcript_path": ""}
	switch h.Event {
	case "SessionStart":
		payload["source"] = "startup"
		if strings.Contains(h.Command, "--compact-recovery") {
			payload["source"] = "compact"
		}
	case "PreCompact":
		payload["trigger"] = "manual"
	case "SessionEnd":
		payload["reason"] = "other"
	case "Stop":
		payload["stop_hook_active"] = true // never block a check
	case "PostToolUse":
		payload["tool_name"] = "Write"
	}
	b, _ := json.Marshal(payload)
	cmd := exec.Command("/bin/sh", "-c", h.Command)
	cmd.Dir, cmd.Stdin = project, bytes.NewReader(b)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err == nil && stderr.Len() > 0 {
		err = fmt.Errorf("printed on stderr: %s", firstLine(stderr.String()))
	}
	return took, err
}

// transcriptsOf says where Claude Code keeps this project's transcripts:
// <config>/projects/<the path with every / replaced by ->.
func transcriptsOf(project string) string {
	config := os.Getenv("CLAUDE_CONFIG_DIR")
	if config == "" {
		home, _ := os.UserHomeDir()
		config = filepath.Join(home, ".claude")
	}
	dir := filepath.Join(config, "projects", strings.ReplaceAll(project, "/", "-"))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return dir + " (none yet)"
	}
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") {
			n++
		}
	}
	return fmt.Sprintf("%s (%d transcript(s))", dir, n)
}
