package install

import (
	"time"

	"github.com/session-hooks/session-hooks/agent/codex"
	contract "github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
)

// Commands are Codex CLI's person commands: $CODEX_HOME/hooks.json, each
// entry trusted in its config.toml with the hash Codex reports.
var Commands = contract.Commands{
	Wires: "Codex CLI's $CODEX_HOME/hooks.json, each entry trusted in its config.toml",
	Flags: map[string][]contract.Flag{
		"install": {contract.Command,
			{Name: "long-running", Bool: true, Usage: "also wire the check on Codex's Stop (=false removes it; without it, what is wired stays)"},
			contract.NoGitignore, contract.DryRun},
		"uninstall": {},
		"status":    {contract.Format},
		"doctor":    {contract.Format},
	},
	Install: func(r contract.Request) error {
		opt, err := optionsOf(r)
		if err != nil {
			return err
		}
		opt.DryRun, opt.LongRunning = r.Bool("dry-run"), r.BoolFlag("long-running")
		// $CODEX_HOME/hooks.json is the user's: the command is the user scope's.
		opt.Program, err = contract.OurCommand(contract.CommandOptions{Scope: "user", Command: r.String("command"), Executable: r.Executable, Client: codex.Adapter.Label}, r.Dir)
		if err != nil {
			return err
		}
		if err := Install(r.Ctx, opt); err != nil {
			return err
		}
		if !r.Bool("no-gitignore") && !opt.DryRun {
			contract.IgnoreLogs(r.Dir, r.Out) // the project it was run in
		}
		return nil
	},
	Uninstall: func(r contract.Request) error {
		opt, err := optionsOf(r)
		if err != nil {
			return err
		}
		return Uninstall(opt)
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
		d := contract.RunDoctor(codex.Adapter.Name, project, st.Warnings, Rehearsals(st, project))
		return contract.Result{Data: d, Text: d.Text(reader), Problems: d.Problems}, nil
	},
}

// statusOf is hooks.json's entries of ours and what Codex says of them.
func statusOf(r contract.Request) (Status, error) {
	opt, err := optionsOf(r)
	if err != nil {
		return Status{}, err
	}
	return ReadStatus(r.Ctx, opt)
}

// optionsOf are where Codex keeps its configuration, and how it is asked.
func optionsOf(r contract.Request) (Options, error) {
	home, err := Home(r.Getenv, r.Home)
	if err != nil {
		return Options{}, err
	}
	return Options{Home: home, Codex: "codex", Dir: r.Dir, Out: r.Out}, nil
}

// reader is what status and doctor say of codex.Adapter.Label.
var reader = wiring.Reader{Label: codex.Adapter.Label, DefaultTimeout: 600 * time.Second}
