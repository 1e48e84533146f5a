package agent

import (
	"github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/agent/codex"
	codexinstall "github.com/session-hooks/session-hooks/agent/codex/install"
	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Codex is Codex CLI: $CODEX_HOME/hooks.json, each entry trusted in its
// config.toml with the hash Codex reports.
var Codex = Agent{
	Hooks: codex.Adapter,
	Wires: "Codex CLI's $CODEX_HOME/hooks.json, each entry trusted in its config.toml",
	Flags: map[string][]string{
		"install":   {"command", "long-running", "no-gitignore", "dry-run"},
		"uninstall": {},
		"status":    {"format"},
		"doctor":    {"format"},
	},
	Install: func(r Request) error {
		opt, err := codexOptions(r)
		if err != nil {
			return err
		}
		opt.DryRun, opt.LongRunning = r.Bool("dry-run"), r.boolFlag("long-running")
		// $CODEX_HOME/hooks.json is the user's: the command is the user scope's.
		opt.Program, err = settings.OurCommand(settings.InstallOptions{Scope: "user", Command: r.String("command"), Executable: r.Executable}, r.Dir)
		if err != nil {
			return err
		}
		if err := codexinstall.Install(r.Ctx, opt); err != nil {
			return err
		}
		if !r.Bool("no-gitignore") && !opt.DryRun {
			settings.IgnoreLogs(r.Dir, r.Out) // the project it was run in
		}
		return nil
	},
	Uninstall: func(r Request) error {
		opt, err := codexOptions(r)
		if err != nil {
			return err
		}
		return codexinstall.Uninstall(opt)
	},
	Status: func(r Request) (Result, error) {
		st, err := codexStatus(r)
		if err != nil {
			return Result{}, err
		}
		return Result{st.Wiring(), st.Text(), len(st.Warnings)}, nil
	},
	Doctor: func(r Request) (Result, error) {
		st, err := codexStatus(r)
		if err != nil {
			return Result{}, err
		}
		project, _ := hookfile.ProjectRoot(r.Dir)
		return doctor(codex.Adapter, project, st.Warnings, codexinstall.Rehearsals(st, project)), nil
	},
}

// codexStatus is hooks.json's entries of ours and what Codex says of them.
func codexStatus(r Request) (codexinstall.Status, error) {
	opt, err := codexOptions(r)
	if err != nil {
		return codexinstall.Status{}, err
	}
	return codexinstall.ReadStatus(r.Ctx, opt)
}

// codexOptions are where Codex keeps its configuration, and how it is asked.
func codexOptions(r Request) (codexinstall.Options, error) {
	home, err := codexinstall.Home(r.Getenv, r.Home)
	if err != nil {
		return codexinstall.Options{}, err
	}
	return codexinstall.Options{Home: home, Codex: "codex", Dir: r.Dir, Out: r.Out}, nil
}

// doctor is the status's problems and each entry run as the client runs it.
func doctor(a protocol.Agent, project string, problems []string, rehearsals []hookfile.Rehearsal) Result {
	d := settings.RunAgentDoctor(a.Name, a.Label, project, problems, rehearsals)
	return Result{d.Doctor, d.Text(), d.Problems}
}
