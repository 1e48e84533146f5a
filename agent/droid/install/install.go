// Package install wires session-hooks into Factory Droid 0.225: entries
// in the hooks of a settings.json (the project's .factory/settings.json,
// or the user's ~/.factory/settings.json), in Claude Code's nesting and
// matchers, with timeouts in seconds, as install/nested writes them.
package install

import (
	"time"

	"github.com/session-hooks/session-hooks/agent/droid"
	"github.com/session-hooks/session-hooks/install/nested"
)

// Client is Factory Droid's install. Started in a subdirectory, Droid
// runs the top's project hooks (seen with 0.225.2).
var Client = nested.Client{Agent: droid.Adapter, Events: droid.Events, Dir: ".factory", DefaultTimeout: 60 * time.Second}

// Commands are Factory Droid's person commands: the scope's
// .factory/settings.json.
var Commands = Client.Commands()
