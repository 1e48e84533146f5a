package settings

import (
	"io"
	"os"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are Claude Code's person commands: its settings.json at
// project, local or user scope; its plugin stands down where the settings
// wire the same entry.
var Commands = install.Commands{
	Wires: "Claude Code's .claude/settings.json (--scope local: settings.local.json; user: ~/.claude/settings.json)",
	Flags: map[string][]install.Flag{
		"install": append([]install.Flag{scope, install.Command,
			{Name: "long-running", Bool: true, Usage: "also wire the Stop and PostToolBatch checks (=false removes them; without it, what is wired stays)"},
			install.DryRun,
			{Name: "exec", Bool: true, Usage: "write entries in the exec form (command + args, no shell; Windows without Git Bash needs it). Default: when the claude on PATH is 2.1.330 or later"},
			install.NoGitignore, followSymlinks,
			{Name: "rewrite-strict", Bool: true, Usage: "rewrite a settings file Claude Code refuses (comments, trailing commas) as strict JSON before adding to it"}},
			install.TableFlags()...),
		"uninstall": {scope, install.Command, followSymlinks},
		"status":    {install.Command, install.Format},
		"doctor":    {install.Command, install.Format},
	},
	Install: func(r install.Request) error {
		opt := InstallOptions{Scope: r.String("scope"), Command: r.String("command"),
			Flags: map[string]bool{}, NoGitignore: r.Bool("no-gitignore"), DryRun: r.Bool("dry-run"),
			Executable: r.Executable, FollowSymlinks: r.Bool("follow-symlinks"), RewriteStrict: r.Bool("rewrite-strict"),
			Exec: r.BoolFlag("exec"), LongRunning: r.BoolFlag("long-running")}
		for _, f := range install.TableFlags() {
			if r.IsSet(f.Name) {
				opt.Flags[f.Name] = r.Bool(f.Name)
			}
		}
		return RunInstall(envOf(r), opt)
	},
	Uninstall: func(r install.Request) error {
		return RunUninstall(envOf(r), UninstallOptions{Scope: r.String("scope"), Command: r.String("command"),
			FollowSymlinks: r.Bool("follow-symlinks")})
	},
	Status: func(r install.Request) (install.Result, error) {
		st := ReadStatus(envOf(r), r.String("command"))
		return install.Result{Data: st.Wiring(), Text: st.Wiring().Text(reader), Problems: len(st.Warnings)}, nil
	},
	Doctor: func(r install.Request) (install.Result, error) {
		d := RunDoctor(envOf(r), r.String("command"))
		return install.Result{Data: d.Doctor, Text: d.Doctor.Text(reader), Problems: d.Problems}, nil
	},
	PluginStandsDown: func(event string, args []string, within time.Duration) bool {
		return WiresWithin(pluginEnv(), event, args, within)
	},
}

var (
	scope          = install.Scope("project (.claude/settings.json), local (.claude/settings.local.json) or user")
	followSymlinks = install.Flag{Name: "follow-symlinks", Bool: true, Usage: "write through a settings file's links even when they lead outside the project (user scope: Claude's configuration directory)"}
)

func envOf(r install.Request) Env {
	return Env{Dir: r.Dir, Getenv: r.Getenv, Home: r.Home, Out: r.Out}
}

// pluginEnv is where Claude Code reads the settings the plugin defers to:
// the directory it was started in.
func pluginEnv() Env {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	if d := os.Getenv(claude.EnvProjectDir); d != "" {
		dir = d
	}
	return Env{Dir: dir, Getenv: os.Getenv, Home: os.UserHomeDir, Out: io.Discard}
}

// reader is what status and doctor say of Claude Code: an entry without a
// timeout is said to have none, and a start's output is measured against
// its limit.
var reader = wiring.Reader{Label: claude.Adapter.Label, Limit: claude.Limit}
