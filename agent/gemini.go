package agent

import (
	"cmp"

	"github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/agent/gemini"
	geminiinstall "github.com/session-hooks/session-hooks/agent/gemini/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// Gemini is Gemini CLI: the scope's .gemini/settings.json.
var Gemini = Agent{
	Hooks: gemini.Adapter,
	Wires: "Gemini CLI's .gemini/settings.json (--scope user: ~/.gemini/settings.json)",
	Flags: map[string][]string{
		"install":   {"command", "scope", "long-running", "no-gitignore", "dry-run"},
		"uninstall": {"scope"},
		"status":    {"format"},
		"doctor":    {"format"},
	},
	Install: func(r Request) error {
		path, err := geminiinstall.Path(r.String("scope"), r.Dir, r.Home)
		if err != nil {
			return err
		}
		// Gemini CLI sets $CLAUDE_PROJECT_DIR too: the project's command is
		// chosen as Claude Code's is, one a teammate's machine runs.
		program, err := settings.OurCommand(settings.InstallOptions{Scope: cmp.Or(r.String("scope"), "project"),
			Command: r.String("command"), Executable: r.Executable}, r.Dir)
		if err != nil {
			return err
		}
		if err := geminiinstall.Install(path, program, r.boolFlag("long-running"), r.Out, r.Bool("dry-run")); err != nil {
			return err
		}
		if !r.Bool("no-gitignore") && r.String("scope") != "user" && !r.Bool("dry-run") {
			settings.IgnoreLogs(r.Dir, r.Out)
		}
		return nil
	},
	Uninstall: func(r Request) error {
		path, err := geminiinstall.Path(r.String("scope"), r.Dir, r.Home)
		if err != nil {
			return err
		}
		return geminiinstall.Uninstall(path, r.Out)
	},
	Status: func(r Request) (Result, error) {
		w, err := geminiWhere(r)
		if err != nil {
			return Result{}, err
		}
		st := geminiinstall.ReadStatus(w)
		return Result{st.Wiring(), st.Text(), len(st.Warnings)}, nil
	},
	Doctor: func(r Request) (Result, error) {
		w, err := geminiWhere(r)
		if err != nil {
			return Result{}, err
		}
		st := geminiinstall.ReadStatus(w)
		project, _ := hookfile.ProjectRoot(r.Dir)
		return doctor(gemini.Adapter, project, st.Warnings, geminiinstall.Rehearsals(st, project)), nil
	},
}

// geminiWhere is where Gemini CLI's settings are for this directory and
// user.
func geminiWhere(r Request) (geminiinstall.Where, error) {
	home, err := r.Home()
	if err != nil {
		return geminiinstall.Where{}, err
	}
	return geminiinstall.Where{Dir: r.Dir, Home: home, TrustWorkspace: r.Getenv("GEMINI_CLI_TRUST_WORKSPACE")}, nil
}
