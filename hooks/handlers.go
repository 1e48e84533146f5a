// Package hooks is what session-hooks does at each event of the event
// table (package eventtable): one file per event holds its handler. Each
// handler reads as a short story: gather facts into plain data (package
// facts), decide with pure functions of them, render without reading
// anything, and write the logs, the state and the event line once.
package hooks

import (
	"strings"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
)

// handlers answer the table's rows, by the arguments of each (a
// subcommand and its selecting flag): every row has one
// (TestEveryRowHasAHandler).
var handlers = map[string]func(*Run) string{
	"init":                    handleInit,
	"init --compact-recovery": handleRecovery,
	"pre-compact":             handlePreCompact,
	"post-compact":            handlePostCompact,
	"end":                     handleEnd,
	"stop":                    handleStop,
	"post-tool":               handlePostTool,
	"model-switch":            handleModelSwitch,
}

// handlerOf is the handler of a row; nil for a row with none.
func handlerOf(e eventtable.Event) func(*Run) string {
	return handlers[strings.Join(e.Args(), " ")]
}
