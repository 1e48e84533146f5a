package agent

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/agent/copilot"
	copilotinstall "github.com/session-hooks/session-hooks/agent/copilot/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Copilot is GitHub Copilot CLI: the repository's
// .github/hooks/session-hooks.json, or the user's Copilot CLI settings.
var Copilot = Agent{
	Hooks: copilot.Adapter,
	Wires: "the repository's .github/hooks/session-hooks.json (--scope user: Copilot CLI's settings.json)",
	Flags: map[string][]string{
		"install":   {"command", "scope", "long-running", "no-gitignore", "dry-run"},
		"uninstall": {"scope"},
		"status":    {"format"},
		"doctor":    {"format"},
	},
	Install: func(r Request) error {
		w := copilotWhere(r)
		scope := cmp.Or(r.String("scope"), "project")
		path, err := copilotinstall.Path(scope, w.Root, w.Home)
		if err != nil {
			return err
		}
		program, err := settings.OurCommand(settings.InstallOptions{Scope: scope, Command: r.String("command"), Executable: r.Executable}, w.Root)
		if err != nil {
			return err
		}
		if strings.Contains(program, "$CLAUDE_PROJECT_DIR") {
			return hookfile.UsageError{Msg: "Copilot CLI sets no $CLAUDE_PROJECT_DIR for a binary inside the project: put session-hooks on PATH, or give --command"}
		}
		opt := copilotinstall.Options{Path: path, Program: program, LongRunning: r.boolFlag("long-running"), DryRun: r.Bool("dry-run"), Out: r.Out}
		if err := copilotinstall.Install(opt); err != nil {
			return err
		}
		if scope == "project" && !opt.DryRun {
			fmt.Fprintln(r.Out, "Copilot CLI runs a repository's hooks only in a folder you trust: it asks at the first start here.")
		}
		if !r.Bool("no-gitignore") && scope != "user" && !opt.DryRun {
			settings.IgnoreLogs(w.Root, r.Out)
		}
		return nil
	},
	Uninstall: func(r Request) error {
		w := copilotWhere(r)
		path, err := copilotinstall.Path(cmp.Or(r.String("scope"), "project"), w.Root, w.Home)
		if err != nil {
			return err
		}
		return copilotinstall.Uninstall(path, r.Out)
	},
	Status: func(r Request) (Result, error) {
		st := copilotinstall.ReadStatus(copilotWhere(r))
		return Result{st.Wiring(), st.Text(), len(st.Warnings)}, nil
	},
	Doctor: func(r Request) (Result, error) {
		w := copilotWhere(r)
		st := copilotinstall.ReadStatus(w)
		return doctor(copilot.Adapter, w.Root, st.Warnings, copilotinstall.Rehearsals(st, w.Root)), nil
	},
}

// copilotWhere is where Copilot CLI's hooks are for this directory and
// user.
func copilotWhere(r Request) copilotinstall.Where {
	root, _ := hookfile.ProjectRoot(r.Dir)
	return copilotinstall.Where{Root: root, Home: copilot.Home(r.Getenv)}
}
