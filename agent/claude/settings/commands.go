package settings

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"

	"github.com/session-hooks/session-hooks/agent/claude"
)

// These commands are run by a person, not by Claude Code: they fail, with
// a message saying what to do, and the caller exits non-zero.

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
		return "", hookfile.UsageError{Msg: err.Error()}
	}
	return path, nil
}

// InstallOptions are install's flags.
type InstallOptions struct {
	Scope   string
	Command string // what the hooks run; "" for this binary
	// LongRunning wires the long-running checks (true), removes them
	// (false), or keeps what is wired (nil). Flags does the same for each
	// install flag of the event table (post-compact…): absent keeps.
	LongRunning *bool
	Flags       map[string]bool
	NoGitignore bool
	DryRun      bool // print the change as a diff; write nothing
	// Exec writes the exec form (true), the shell form (false), or the
	// exec form when the claude on PATH runs it (nil), as ClaudeVersion
	// (default: claude --version) tells.
	Exec          *bool
	ClaudeVersion func() (string, error)
	Executable    func() (string, error)
	LookPath      func(string) (string, error)
	// FollowSymlinks writes through a settings file's links even when
	// they lead outside the scope's own directory.
	FollowSymlinks bool
	// RewriteStrict rewrites a settings file Claude Code refuses (it has
	// comments or trailing commas) as strict JSON before adding to it.
	RewriteStrict bool
}

// RunInstall wires session-hooks into the scope's settings file.
func RunInstall(env Env, opt InstallOptions) error {
	project, moved := hookfile.ProjectRoot(env.Dir)
	if moved && opt.Scope != "user" {
		fmt.Fprintf(env.Out, "Installing at the top of the repository, %s (you are in a subdirectory). Note: %s.\n", project,
			install.BelowTop(env.Dir, claude.Adapter.Label, ".claude/settings.json"))
	}
	env.Dir = project
	path, err := env.settingsPath(opt.Scope)
	if err != nil {
		return err
	}
	cmd, err := install.OurCommand(install.CommandOptions{Scope: opt.Scope, Command: opt.Command, Executable: opt.Executable, LookPath: opt.LookPath,
		ProjectDirEnv: claude.Adapter.ProjectDirEnv, Client: claude.Adapter.Label}, project)
	if err != nil {
		return err
	}
	old, existed, err := hookfile.Read(path)
	if err != nil {
		return err
	}
	fence := env.fenceFor(opt.Scope, opt.FollowSymlinks)
	longRunning, flags := hookfile.Keep(old, opt.Command)
	if opt.LongRunning != nil {
		longRunning = *opt.LongRunning
	}
	for f, on := range opt.Flags {
		flags = slices.DeleteFunc(flags, func(x string) bool { return x == f })
		if on {
			flags = append(flags, f)
		}
	}
	want := hookfile.Desired(cmd, longRunning, flags...)
	if useExec(opt) {
		want = hookfile.ExecForm(want)
	}
	base := old
	// A file that is not even JSON with comments is Install's to refuse.
	if _, perr := hookfile.Parse(old); perr == nil && NotLoaded(old) != "" {
		why := NotLoaded(old)
		if !opt.RewriteStrict {
			return fmt.Errorf("%s is not loaded by Claude Code (%s). Entries added to it would never run: "+
				"fix it by hand, or pass --rewrite-strict to rewrite it as strict JSON (comments and trailing commas are dropped; --dry-run shows the change). The file is left untouched.", path, why)
		}
		if base, err = Strict(old); err != nil {
			return fmt.Errorf("cannot rewrite %s as strict JSON: %v. The file is left untouched.", path, err)
		}
	}
	res, err := hookfile.Install(base, want, opt.Command)
	err = hookfile.ReadBy(err, claude.Adapter.Label)
	if err != nil {
		return fmt.Errorf("cannot install into %s: %v. The file is left untouched.", path, err)
	}
	if !bytes.Equal(base, old) {
		res.Changed = true
		res.Changes = append([]string{"~ rewritten as strict JSON (comments and trailing commas dropped)"}, res.Changes...)
	}
	out := env.Out
	switch {
	case !res.Changed:
		fmt.Fprintf(out, "session-hooks is already installed in %s; nothing changed.\n", path)
	case opt.DryRun:
		install.ShowChange(out, path, old, res.JSON)
		return nil
	default:
		backup, err := install.Save(path, fence, old, existed, res.JSON, 0o644)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Installed session-hooks (%s) into %s.\n", cmd, path)
		for _, c := range res.Changes {
			fmt.Fprintln(out, "  "+c)
		}
		if backup != "" {
			fmt.Fprintf(out, "The previous version is kept as %s.\n", backup)
		}
		if res.Migrated > 0 {
			fmt.Fprintf(out, "Replaced %d entr%s of the Node script (session-hooks.mjs).\n", res.Migrated, plural(res.Migrated, "y", "ies"))
		}
	}
	if opt.Scope != "user" && !opt.NoGitignore && !opt.DryRun {
		install.IgnoreLogs(project, out)
	}
	return nil
}

// useExec decides the exec form: as told, else when the claude on PATH
// is a version known to run it.
func useExec(opt InstallOptions) bool {
	if opt.Exec != nil {
		return *opt.Exec
	}
	version := opt.ClaudeVersion
	if version == nil {
		version = claudeVersion
	}
	out, err := version()
	return err == nil && claude.RunsExecForm(out)
}

// claudeVersion asks the claude on PATH its version.
func claudeVersion() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "claude", "--version").Output()
	return string(out), err
}

// UninstallOptions are uninstall's flags.
type UninstallOptions struct {
	Scope          string
	Command        string
	FollowSymlinks bool // as InstallOptions'
}

// RunUninstall removes our entries from the scope's settings file, and
// nothing else.
func RunUninstall(env Env, opt UninstallOptions) error {
	// From a subdirectory, the settings install wrote: at the top.
	env.Dir, _ = hookfile.ProjectRoot(env.Dir)
	path, err := env.settingsPath(opt.Scope)
	if err != nil {
		return err
	}
	old, existed, err := hookfile.Read(path)
	if err != nil {
		return err
	}
	if !existed {
		fmt.Fprintf(env.Out, "%s does not exist; nothing to uninstall.\n", path)
		return nil
	}
	res, err := hookfile.Uninstall(old, opt.Command)
	err = hookfile.ReadBy(err, claude.Adapter.Label)
	if err != nil {
		return fmt.Errorf("cannot uninstall from %s: %v. The file is left untouched.", path, err)
	}
	if !res.Changed {
		fmt.Fprintf(env.Out, "No session-hooks entries in %s; nothing changed.\n", path)
		return nil
	}
	fence := env.fenceFor(opt.Scope, opt.FollowSymlinks)
	if target, err := install.WriteTarget(path); err == nil && backup.HoldsNothing(res.JSON) && backup.CreatedByInstall(target) {
		// install made this file, and it now holds nothing: it goes.
		if real, ok := fence.Allows(path); !ok {
			return fmt.Errorf("%s leads to %s, outside %s; not removing it through the link (pass --follow-symlinks)", path, real, fence.Root)
		}
		if err := os.Remove(target); err != nil {
			return fmt.Errorf("cannot remove %s: %v", target, err)
		}
		backup.UnmarkCreated(target)
		fmt.Fprintf(env.Out, "Removed %d session-hooks entr%s, and %s, which install had created and which now held nothing.\n",
			res.Removed, plural(res.Removed, "y", "ies"), path)
		return nil
	}
	backup, err := install.Save(path, fence, old, existed, res.JSON, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Removed %d session-hooks entr%s from %s (the previous version is kept as %s).\n",
		res.Removed, plural(res.Removed, "y", "ies"), path, backup)
	return nil
}

// followHint is what a refused link can be written through with.
const followHint = "pass --follow-symlinks to write there"

func (e Env) fenceFor(scope string, follow bool) install.Fence {
	if scope == "user" {
		dir, _ := claude.ConfigDir(e.Getenv, e.Home)
		return install.Fence{Root: dir, Follow: follow, Hint: followHint}
	}
	root, _ := hookfile.ProjectRoot(e.Dir)
	return install.Fence{Root: root, Follow: follow, Hint: followHint}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
