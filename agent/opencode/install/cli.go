package install

import (
	"cmp"
	"path/filepath"

	"github.com/session-hooks/session-hooks/agent/opencode"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are OpenCode's person commands: the scope's plugin file.
var Commands = contract.Commands{
	Wires: "OpenCode's .opencode/plugin/session-hooks.js (--scope user: ~/.config/opencode/plugin/)",
	Flags: map[string][]contract.Flag{
		"install": {contract.Command, scope,
			{Name: "long-running", Bool: true, Usage: "also run the checks when an OpenCode session goes idle (=false removes them; without it, what is wired stays)"},
			contract.NoGitignore, contract.DryRun},
		"uninstall": {scope},
		"status":    {contract.Format},
		"doctor":    {contract.Format},
	},
	Install: func(r contract.Request) error {
		s := cmp.Or(r.String("scope"), "project")
		path, err := Path(s, r.Dir, r.Getenv, r.Home)
		if err != nil {
			return err
		}
		program, err := contract.OurCommand(contract.CommandOptions{Scope: s, Command: r.String("command"), Executable: r.Executable,
			ProjectDirEnv: opencode.Adapter.ProjectDirEnv, Client: opencode.Adapter.Label}, r.Dir)
		if err != nil {
			return err
		}
		// The folder holding .opencode (the project), or OpenCode's
		// configuration folder, fences the write.
		fence := filepath.Dir(filepath.Dir(filepath.Dir(path)))
		if s == "user" {
			fence = filepath.Dir(filepath.Dir(path))
		}
		if err := Install(path, program, r.BoolFlag("long-running"), fence, r.Out, r.Bool("dry-run")); err != nil {
			return err
		}
		if !r.Bool("no-gitignore") && s != "user" && !r.Bool("dry-run") {
			contract.IgnoreLogs(r.Dir, r.Out)
		}
		return nil
	},
	Uninstall: func(r contract.Request) error {
		path, err := Path(cmp.Or(r.String("scope"), "project"), r.Dir, r.Getenv, r.Home)
		if err != nil {
			return err
		}
		return Uninstall(path, r.Out)
	},
	Status: func(r contract.Request) (contract.Result, error) {
		st := ReadStatus(r.Dir, r.Getenv, r.Home)
		return contract.Result{Data: st.Wiring(), Text: st.Wiring().Text(reader), Problems: len(st.Warnings)}, nil
	},
	Doctor: func(r contract.Request) (contract.Result, error) {
		st := ReadStatus(r.Dir, r.Getenv, r.Home)
		project, _ := hookfile.ProjectRoot(r.Dir)
		d := contract.RunDoctor(opencode.Adapter.Name, project, st.Warnings, Rehearsals(st, project))
		return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
	},
}

var scope = contract.Scope("project (.opencode/plugin/) or user (~/.config/opencode/plugin/)")

// reader is what status and doctor say of OpenCode.
var reader = wiring.Reader{Label: opencode.Adapter.Label, DefaultTimeout: 0}
