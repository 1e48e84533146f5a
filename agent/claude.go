package agent

import (
	"io"
	"os"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
)

// Claude is Claude Code: its settings.json at project, local or user
// scope, or its plugin.
var Claude = Agent{
	Hooks: claude.Adapter,
	Wires: "Claude Code's .claude/settings.json (--scope local: settings.local.json; user: ~/.claude/settings.json)",
	Flags: map[string][]string{
		"install":   append([]string{"scope", "command", "long-running", "dry-run", "exec", "no-gitignore", "follow-symlinks", "rewrite-strict"}, installFlags()...),
		"uninstall": {"scope", "command", "follow-symlinks"},
		"status":    {"command", "format"},
		"doctor":    {"command", "format"},
	},
	Install: func(r Request) error {
		opt := settings.InstallOptions{Scope: r.String("scope"), Command: r.String("command"),
			Flags: map[string]bool{}, NoGitignore: r.Bool("no-gitignore"), DryRun: r.Bool("dry-run"),
			Executable: r.Executable, FollowSymlinks: r.Bool("follow-symlinks"), RewriteStrict: r.Bool("rewrite-strict"),
			Exec: r.boolFlag("exec"), LongRunning: r.boolFlag("long-running")}
		for _, f := range installFlags() {
			if r.IsSet(f) {
				opt.Flags[f] = r.Bool(f)
			}
		}
		return settings.RunInstall(claudeEnv(r), opt)
	},
	Uninstall: func(r Request) error {
		return settings.RunUninstall(claudeEnv(r), settings.UninstallOptions{Scope: r.String("scope"), Command: r.String("command"),
			FollowSymlinks: r.Bool("follow-symlinks")})
	},
	Status: func(r Request) (Result, error) {
		st := settings.ReadStatus(claudeEnv(r), r.String("command"))
		return Result{st.Wiring(), st.Text(), len(st.Warnings)}, nil
	},
	Doctor: func(r Request) (Result, error) {
		d := settings.RunDoctor(claudeEnv(r), r.String("command"))
		return Result{d.Doctor, d.Text(), d.Problems}, nil
	},
	PluginStandsDown: func(e eventtable.Event, within time.Duration) bool {
		return settings.WiresWithin(pluginEnv(), e.Event, e.Args(), within)
	},
}

// pluginEnv is where Claude Code reads the settings the plugin defers to:
// the directory it was started in.
func pluginEnv() settings.Env {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	if d := os.Getenv(claude.EnvProjectDir); d != "" {
		dir = d
	}
	return settings.Env{Dir: dir, Getenv: os.Getenv, Home: os.UserHomeDir, Out: io.Discard}
}

// installFlags are the event table's install flags (--post-compact…).
func installFlags() []string {
	var out []string
	for _, e := range eventtable.Table {
		if e.InstallFlag != "" {
			out = append(out, e.InstallFlag)
		}
	}
	return out
}

func claudeEnv(r Request) settings.Env {
	return settings.Env{Dir: r.Dir, Getenv: r.Getenv, Home: r.Home, Out: r.Out}
}
