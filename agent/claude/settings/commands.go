package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/atomicfile"
)

// These commands are run by a person, not by Claude Code: they fail, with
// a message saying what to do, and the caller exits non-zero.

// UsageError is a mistake in the command line (exit status 2); any other
// error is a failure (exit status 1).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Env is what the commands take from the process: the directory they run
// in, the environment and the home directory, so tests can set each.
type Env struct {
	Dir    string
	Getenv func(string) string
	Home   func() (string, error)
	Out    io.Writer
}

func (e Env) settingsPath(scope string) (string, error) {
	path, err := claude.SettingsPath(scope, e.Dir, e.Getenv, e.Home)
	if err != nil {
		return "", UsageError{err.Error()}
	}
	return path, nil
}

// InstallOptions are install's flags.
type InstallOptions struct {
	Scope       string
	Command     string // what the hooks run; "" for this binary's path
	LongRunning bool
	Flags       []string // the event table's install flags that are on (post-compact)
	NoGitignore bool
	Executable  func() (string, error)
}

// RunInstall wires session-hooks into the scope's settings file.
func RunInstall(env Env, opt InstallOptions) error {
	path, err := env.settingsPath(opt.Scope)
	if err != nil {
		return err
	}
	cmd, err := ourCommand(opt.Command, opt.Executable)
	if err != nil {
		return fmt.Errorf("cannot tell where this binary is (%v); pass --command", err)
	}
	old, existed, err := readSettings(path)
	if err != nil {
		return err
	}
	res, err := Install(old, Desired(cmd, opt.LongRunning, opt.Flags...), opt.Command)
	if err != nil {
		return fmt.Errorf("cannot install into %s: %v. The file is left untouched.", path, err)
	}
	out := env.Out
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
	if opt.Scope != "user" && !opt.NoGitignore {
		if added, err := ignoreLogs(env.Dir); err != nil {
			fmt.Fprintf(out, "Could not add .claude/logs/ to .gitignore: %v\n", err)
		} else if added {
			fmt.Fprintln(out, "Added .claude/logs/ to .gitignore.")
		}
	}
	return nil
}

// UninstallOptions are uninstall's flags.
type UninstallOptions struct {
	Scope   string
	Command string
}

// RunUninstall removes our entries from the scope's settings file, and
// nothing else.
func RunUninstall(env Env, opt UninstallOptions) error {
	path, err := env.settingsPath(opt.Scope)
	if err != nil {
		return err
	}
	old, existed, err := readSettings(path)
	if err != nil {
		return err
	}
	if !existed {
		fmt.Fprintf(env.Out, "%s does not exist; nothing to uninstall.\n", path)
		return nil
	}
	res, err := Uninstall(old, opt.Command)
	if err != nil {
		return fmt.Errorf("cannot uninstall from %s: %v. The file is left untouched.", path, err)
	}
	if !res.Changed {
		fmt.Fprintf(env.Out, "No session-hooks entries in %s; nothing changed.\n", path)
		return nil
	}
	if err := saveSettings(path, old, existed, res.JSON); err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Removed %d session-hooks entr%s from %s (the previous version is kept as %s.bak).\n",
		res.Removed, plural(res.Removed, "y", "ies"), path, path)
	return nil
}

// ourCommand is what the hooks run: --command, else this binary's path.
func ourCommand(custom string, executable func() (string, error)) (string, error) {
	if custom != "" {
		return custom, nil
	}
	exe, err := executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return ShellQuote(exe), nil
}

func readSettings(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("cannot read %s: %v", path, err)
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
		return err
	}
	if existed {
		if err := atomicfile.Write(path+".bak", old, atomicfile.Options{Perm: mode, Durable: true}); err != nil {
			return fmt.Errorf("cannot keep a backup (%v); nothing changed", err)
		}
	}
	if err := atomicfile.Write(path, js, atomicfile.Options{Perm: mode, Durable: true}); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
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
	return true, atomicfile.Write(path, append(b, ".claude/logs/\n"...), atomicfile.Options{Perm: 0o644})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
