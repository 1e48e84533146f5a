package install

import (
	"cmp"

	"github.com/session-hooks/session-hooks/agent/droid"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are Factory Droid's person commands: the scope's .factory/settings.json.
var Commands = contract.Commands{
	Wires: "Factory Droid's .factory/settings.json (--scope user: ~/.factory/settings.json)",
	Flags: map[string][]contract.Flag{
		"install": {contract.Command, scope,
			{Name: "long-running", Bool: true, Usage: "also wire the check on Factory Droid's Stop (=false removes it; without it, what is wired stays)"},
			contract.NoGitignore, contract.DryRun},
		"uninstall": {scope},
		"status":    {contract.Format},
		"doctor":    {contract.Format},
	},
	Install: func(r contract.Request) error {
		s := cmp.Or(r.String("scope"), "project")
		path, err := Path(s, r.Dir, r.Home)
		if err != nil {
			return err
		}
		program, err := contract.OurCommand(contract.CommandOptions{Scope: s, Command: r.String("command"), Executable: r.Executable,
			ProjectDirEnv: droid.Adapter.ProjectDirEnv, Client: droid.Adapter.Label}, r.Dir)
		if err != nil {
			return err
		}
		if err := Install(path, program, r.BoolFlag("long-running"), r.Out, r.Bool("dry-run")); err != nil {
			return err
		}
		if !r.Bool("no-gitignore") && s != "user" && !r.Bool("dry-run") {
			contract.IgnoreLogs(r.Dir, r.Out)
		}
		return nil
	},
	Uninstall: func(r contract.Request) error {
		path, err := Path(cmp.Or(r.String("scope"), "project"), r.Dir, r.Home)
		if err != nil {
			return err
		}
		return Uninstall(path, r.Out)
	},
	Status: func(r contract.Request) (contract.Result, error) {
		st, err := statusOf(r)
		if err != nil {
			return contract.Result{}, err
		}
		return contract.Result{Data: st.Wiring(), Text: st.Wiring().Text(reader), Problems: len(st.Warnings)}, nil
	},
	Doctor: func(r contract.Request) (contract.Result, error) {
		st, err := statusOf(r)
		if err != nil {
			return contract.Result{}, err
		}
		project, _ := hookfile.ProjectRoot(r.Dir)
		d := contract.RunDoctor(droid.Adapter.Name, project, st.Warnings, Rehearsals(st, project))
		return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
	},
}

var scope = contract.Scope("project (.factory/settings.json) or user (~/.factory/settings.json)")

// reader is what status and doctor say of Factory Droid.
var reader = wiring.Reader{Label: droid.Adapter.Label, DefaultTimeout: defaultTimeout}

func statusOf(r contract.Request) (Status, error) {
	home, err := r.Home()
	if err != nil {
		return Status{}, err
	}
	return ReadStatus(r.Dir, home), nil
}
