package nested

import (
	"cmp"
	"fmt"

	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are the client's person commands: the scope's settings.json.
func (c Client) Commands() contract.Commands {
	scope := contract.Scope("project (" + c.Dir + "/settings.json) or user (~/" + c.Dir + "/settings.json)")
	reader := wiring.Reader{Label: c.Agent.Label, DefaultTimeout: c.DefaultTimeout}
	statusOf := func(r contract.Request) (Status, error) {
		home, err := r.Home()
		if err != nil {
			return Status{}, err
		}
		return c.ReadStatus(r.Dir, home), nil
	}
	return contract.Commands{
		Wires: c.Agent.Label + "'s " + c.Dir + "/settings.json (--scope user: ~/" + c.Dir + "/settings.json)",
		Flags: map[string][]contract.Flag{
			"install": {contract.Command, scope,
				{Name: "long-running", Bool: true, Usage: "also wire the check on " + c.Agent.Label + "'s Stop (=false removes it; without it, what is wired stays)"},
				contract.NoGitignore, contract.DryRun},
			"uninstall": {scope},
			"status":    {contract.Format},
			"doctor":    {contract.Format},
		},
		Install: func(r contract.Request) error {
			s := cmp.Or(r.String("scope"), "project")
			path, err := c.Path(s, r.Dir, r.Home)
			if err != nil {
				return err
			}
			program, err := contract.OurCommand(contract.CommandOptions{Scope: s, Command: r.String("command"), Executable: r.Executable,
				ProjectDirEnv: c.Agent.ProjectDirEnv, Client: c.Agent.Label}, r.Dir)
			if err != nil {
				return err
			}
			if err := c.Install(path, program, r.BoolFlag("long-running"), r.Out, r.Bool("dry-run")); err != nil {
				return err
			}
			if below := contract.BelowTop(r.Dir, c.Agent.Label, c.Dir+"/settings.json"); c.StartDirOnly && below != "" && s != "user" {
				fmt.Fprintf(r.Out, "Note: %s.\n", below)
			}
			if !r.Bool("no-gitignore") && s != "user" && !r.Bool("dry-run") {
				contract.IgnoreLogs(r.Dir, r.Out)
			}
			return nil
		},
		Uninstall: func(r contract.Request) error {
			path, err := c.Path(cmp.Or(r.String("scope"), "project"), r.Dir, r.Home)
			if err != nil {
				return err
			}
			return c.Uninstall(path, r.Out)
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
			d := contract.RunDoctor(c.Agent.Name, project, st.Warnings, c.Rehearsals(st, project))
			return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
		},
	}
}
