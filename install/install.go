// Package install is the installer contract every client's install
// implements, and what they share: the command the hooks run (OurCommand),
// the link fence and the write target of a settings file (Fence,
// WriteTarget), the logs kept out of git (IgnoreLogs), and doctor's
// rehearsal of an entry with this binary (Rehearse, RunDoctor). Editing a
// settings file losslessly is install/jsonedit's and install/hookfile's,
// the backup install/backup's, status's and doctor's data install/wiring's.
package install

import (
	"context"
	"io"
	"time"
)

// Request is a person command as typed: where, the environment, and its
// flags, read through the command line's own accessors.
type Request struct {
	Ctx        context.Context
	Dir        string // where the command was run
	Getenv     func(string) string
	Home       func() (string, error)
	Executable func() (string, error)
	Out        io.Writer
	IsSet      func(flag string) bool
	String     func(flag string) string
	Bool       func(flag string) bool
}

// BoolFlag is a flag as given: nil when it was not.
func (r Request) BoolFlag(name string) *bool {
	if !r.IsSet(name) {
		return nil
	}
	on := r.Bool(name)
	return &on
}

// Result is what status or doctor found: the data (printed as JSON with
// --format json), the text for a person rendered from it, and the number
// of problems (the command fails when there is one).
type Result struct {
	Data     any
	Text     string
	Problems int
}

// Flag is a flag a client's command takes besides --agent: its name, its
// help, and whether it is a switch (else it takes a value, Default unless
// given).
type Flag struct {
	Name, Usage string
	Bool        bool
	Default     string
}

// Commands are a client's person commands: where install writes (for its
// help), the flags each command takes (any other is refused, and its
// --help offers no other), and the commands themselves.
type Commands struct {
	Wires              string
	Flags              map[string][]Flag
	Install, Uninstall func(Request) error
	Status, Doctor     func(Request) (Result, error)
	// PluginStandsDown, for a client with a plugin, says whether the
	// settings of the directory the client started in wire the row's
	// entry already (event, args; checked within the time given): the
	// plugin's hook then does nothing.
	PluginStandsDown func(event string, args []string, within time.Duration) bool
}

// Takes says whether the command takes the flag.
func (c Commands) Takes(command, flag string) bool {
	for _, f := range c.Flags[command] {
		if f.Name == flag {
			return true
		}
	}
	return false
}
