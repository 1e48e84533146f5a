package install

import "github.com/session-hooks/session-hooks/hooks/eventtable"

// The flags several clients' commands take, each declared once; a client
// lists those its commands take (Commands.Flags) with its own words for
// where --scope writes.

// Scope is --scope, with the client's scopes and the files each writes.
func Scope(usage string) Flag {
	return Flag{Name: "scope", Default: "project", Usage: "`SCOPE`: " + usage}
}

// Command is --command.
var Command = Flag{Name: "command", Usage: "the command the hooks run (default: session-hooks at project scope when that is this binary on PATH, else this binary's absolute path)"}

// LongRunning, DryRun, NoGitignore and Format are the switches of the
// same names.
var (
	LongRunning = Flag{Name: "long-running", Bool: true, Usage: "also wire the long-running checks (=false removes them; without it, what is wired stays)"}
	DryRun      = Flag{Name: "dry-run", Bool: true, Usage: "print the change as a diff and write nothing"}
	NoGitignore = Flag{Name: "no-gitignore", Bool: true, Usage: "do not add .claude/logs/ to .gitignore"}
	Format      = Flag{Name: "format", Usage: "`FORMAT`: markdown or json"}
)

// TableFlags are the event table's install flags (--post-compact…): each
// wires its row, =false removes it.
func TableFlags() []Flag {
	var out []Flag
	for _, e := range eventtable.Table {
		if e.InstallFlag != "" {
			out = append(out, Flag{Name: e.InstallFlag, Bool: true, Usage: "also wire " + e.Event + " → " + e.Command + " (=false removes it)"})
		}
	}
	return out
}

// Names are the flags' names.
func Names(flags []Flag) []string {
	var out []string
	for _, f := range flags {
		out = append(out, f.Name)
	}
	return out
}
