package install

import (
	"cmp"
	"fmt"
	"time"

	"github.com/session-hooks/session-hooks/agent/copilot"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are GitHub Copilot CLI's person commands: the repository's
// .github/hooks/session-hooks.json, or the user's Copilot CLI settings.
var Commands = contract.Commands{
	Wires: "the repository's .github/hooks/session-hooks.json (--scope user: Copilot CLI's settings.json)",
	Flags: map[string][]contract.Flag{
		"install": {contract.Command, scope,
			{Name: "long-running", Bool: true, Usage: "also wire the check on Copilot's agentStop (=false removes it; without it, what is wired stays)"},
			contract.NoGitignore, contract.DryRun},
		"uninstall": {scope},
		"status":    {contract.Format},
		"doctor":    {contract.Format},
	},
	Install: func(r contract.Request) error {
		w := whereOf(r)
		scope := cmp.Or(r.String("scope"), "project")
		path, err := Path(scope, w.Root, w.Home)
		if err != nil {
			return err
		}
		program, err := contract.OurCommand(contract.CommandOptions{Scope: scope, Command: r.String("command"), Executable: r.Executable,
			ProjectDirEnv: copilot.Adapter.ProjectDirEnv, Client: copilot.Adapter.Label}, w.Root)
		if err != nil {
			return err
		}
		opt := Options{Path: path, Program: program, LongRunning: r.BoolFlag("long-running"), DryRun: r.Bool("dry-run"), Out: r.Out}
		if err := Install(opt); err != nil {
			return err
		}
		if t := TrustOf(w.Root, w.Home, w.AllowAll); scope == "project" && !opt.DryRun {
			if t.Trusted {
				fmt.Fprintf(r.Out, "Copilot CLI trusts %s (%s), so it runs these hooks.\n", w.Root, t.By)
			} else {
				fmt.Fprintf(r.Out, "Copilot CLI runs a repository's hooks only in a folder it trusts, and does not trust %s yet (copilot -p never asks, and runs none of them): %s.\n", w.Root, howToTrust(w.Root, t))
			}
		}
		if !r.Bool("no-gitignore") && scope != "user" && !opt.DryRun {
			contract.IgnoreLogs(w.Root, r.Out)
		}
		return nil
	},
	Uninstall: func(r contract.Request) error {
		w := whereOf(r)
		path, err := Path(cmp.Or(r.String("scope"), "project"), w.Root, w.Home)
		if err != nil {
			return err
		}
		return Uninstall(path, r.Out)
	},
	Status: func(r contract.Request) (contract.Result, error) {
		st := ReadStatus(whereOf(r))
		return contract.Result{Data: st.Wiring(), Text: st.Wiring().Text(reader), Problems: len(st.Warnings)}, nil
	},
	Doctor: func(r contract.Request) (contract.Result, error) {
		w := whereOf(r)
		st := ReadStatus(w)
		d := contract.RunDoctor(copilot.Adapter.Name, w.Root, st.Warnings, Rehearsals(st, w.Root))
		return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
	},
}

var scope = contract.Scope("project (.github/hooks/session-hooks.json) or user (Copilot CLI's settings.json)")

// whereOf is where Copilot CLI's hooks are for this directory and user.
func whereOf(r contract.Request) Where {
	root, _ := hookfile.ProjectRoot(r.Dir)
	return Where{Root: root, Home: copilot.Home(r.Getenv), AllowAll: allowAll(r.Getenv)}
}

// reader is what status and doctor say of copilot.Adapter.Label.
var reader = wiring.Reader{Label: copilot.Adapter.Label, DefaultTimeout: 30 * time.Second}
