package install

import (
	"cmp"
	"fmt"

	"github.com/session-hooks/session-hooks/agent/qwen"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are Qwen Code's person commands: the scope's .qwen/settings.json.
var Commands = contract.Commands{
	Wires: "Qwen Code's .qwen/settings.json (--scope user: ~/.qwen/settings.json)",
	Flags: map[string][]contract.Flag{
		"install": {contract.Command, scope,
			{Name: "long-running", Bool: true, Usage: "also wire the check on Qwen Code's Stop (=false removes it; without it, what is wired stays)"},
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
			ProjectDirEnv: qwen.Adapter.ProjectDirEnv, Client: qwen.Adapter.Label}, r.Dir)
		if err != nil {
			return err
		}
		if err := Install(path, program, r.BoolFlag("long-running"), r.Out, r.Bool("dry-run")); err != nil {
			return err
		}
		if below := contract.BelowTop(r.Dir, qwen.Adapter.Label, ".qwen/settings.json"); below != "" && r.String("scope") != "user" {
			fmt.Fprintf(r.Out, "Note: %s.\n", below)
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
		d := contract.RunDoctor(qwen.Adapter.Name, project, st.Warnings, Rehearsals(st, project))
		return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
	},
}

var scope = contract.Scope("project (.qwen/settings.json) or user (~/.qwen/settings.json)")

// reader is what status and doctor say of Qwen Code.
var reader = wiring.Reader{Label: qwen.Adapter.Label, DefaultTimeout: defaultTimeout}

func statusOf(r contract.Request) (Status, error) {
	home, err := r.Home()
	if err != nil {
		return Status{}, err
	}
	return ReadStatus(r.Dir, home), nil
}
