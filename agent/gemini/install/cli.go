package install

import (
	"cmp"
	"fmt"
	"time"

	"github.com/session-hooks/session-hooks/agent/gemini"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are Gemini CLI's person commands: the scope's
// .gemini/settings.json.
var Commands = contract.Commands{
	Wires: "Gemini CLI's .gemini/settings.json (--scope user: ~/.gemini/settings.json)",
	Flags: map[string][]contract.Flag{
		"install": {contract.Command, scope,
			{Name: "long-running", Bool: true, Usage: "also wire the check on Gemini's AfterAgent (=false removes it; without it, what is wired stays)"},
			contract.NoGitignore, contract.DryRun},
		"uninstall": {scope},
		"status":    {contract.Format},
		"doctor":    {contract.Format},
	},
	Install: func(r contract.Request) error {
		path, err := Path(r.String("scope"), r.Dir, r.Home)
		if err != nil {
			return err
		}
		// The project's command is one a teammate's machine runs.
		program, err := contract.OurCommand(contract.CommandOptions{Scope: cmp.Or(r.String("scope"), "project"),
			Command: r.String("command"), Executable: r.Executable, ProjectDirEnv: gemini.Adapter.ProjectDirEnv, Client: gemini.Adapter.Label}, r.Dir)
		if err != nil {
			return err
		}
		if err := Install(path, program, r.BoolFlag("long-running"), r.Out, r.Bool("dry-run")); err != nil {
			return err
		}
		if below := contract.BelowTop(r.Dir, gemini.Adapter.Label, ".gemini/settings.json"); below != "" && r.String("scope") != "user" {
			fmt.Fprintf(r.Out, "Note: %s.\n", below)
		}
		if !r.Bool("no-gitignore") && r.String("scope") != "user" && !r.Bool("dry-run") {
			contract.IgnoreLogs(r.Dir, r.Out)
		}
		return nil
	},
	Uninstall: func(r contract.Request) error {
		path, err := Path(r.String("scope"), r.Dir, r.Home)
		if err != nil {
			return err
		}
		return Uninstall(path, r.Out)
	},
	Status: func(r contract.Request) (contract.Result, error) {
		w, err := whereOf(r)
		if err != nil {
			return contract.Result{}, err
		}
		st := ReadStatus(w)
		return contract.Result{Data: st.Wiring(), Text: st.Wiring().Text(reader), Problems: len(st.Warnings)}, nil
	},
	Doctor: func(r contract.Request) (contract.Result, error) {
		w, err := whereOf(r)
		if err != nil {
			return contract.Result{}, err
		}
		st := ReadStatus(w)
		project, _ := hookfile.ProjectRoot(r.Dir)
		d := contract.RunDoctor(gemini.Adapter.Name, project, st.Warnings, Rehearsals(st, project))
		return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
	},
}

var scope = contract.Scope("project (.gemini/settings.json) or user (~/.gemini/settings.json)")

// whereOf is where Gemini CLI's settings are for this directory and user.
func whereOf(r contract.Request) (Where, error) {
	home, err := r.Home()
	if err != nil {
		return Where{}, err
	}
	return Where{Dir: r.Dir, Home: home, TrustWorkspace: r.Getenv("GEMINI_CLI_TRUST_WORKSPACE")}, nil
}

// reader is what status and doctor say of gemini.Adapter.Label.
var reader = wiring.Reader{Label: gemini.Adapter.Label, DefaultTimeout: 60 * time.Second}
