package hookfile

import (
	"regexp"
	"slices"
)

// clients are the --agent names the registry (package agent) serves, and
// its default's, whose entries name no --agent and the contract's events.
// The registry registers them as the program starts; this package names
// no client itself.
var clients struct {
	names []string
	dflt  string
}

// Register tells the settings readers the clients' names and the
// default's. The registry calls it once, at its initialisation.
func Register(names []string, dflt string) {
	clients.names, clients.dflt = slices.Clone(names), dflt
}

// agentName is what an --agent value must look like, whatever is known.
var agentName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// knownAgent says whether --agent names a client: a registered one, or,
// before the registry registered any (this package's own tests), any name
// of a client's shape.
func knownAgent(name string) bool {
	if len(clients.names) == 0 {
		return agentName.MatchString(name)
	}
	return slices.Contains(clients.names, name)
}
