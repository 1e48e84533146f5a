// Package install wires session-hooks into Qwen Code 0.24.4: entries in
// the hooks of a settings.json (the project's .qwen/settings.json, or the
// user's ~/.qwen/settings.json), in Claude Code's nesting and matchers,
// with timeouts in seconds, as install/nested writes them.
package install

import (
	"time"

	"github.com/session-hooks/session-hooks/agent/qwen"
	"github.com/session-hooks/session-hooks/install/nested"
)

// Client is Qwen Code's install. Started in a subdirectory, Qwen Code
// runs none of the hooks the top's settings wire (seen with 0.24.4); it
// writes its schema's "$version" into a settings file.
var Client = nested.Client{Agent: qwen.Adapter, Events: qwen.Events, Dir: ".qwen", StartDirOnly: true,
	DefaultTimeout: 60 * time.Second, Bookkeeping: []string{"$version"}}

// Commands are Qwen Code's person commands: the scope's .qwen/settings.json.
var Commands = Client.Commands()
