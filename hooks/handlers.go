// Package hooks is what session-hooks does at each event of the event
// table (package eventtable): one file per event holds its handler. Each
// handler reads as a short story: gather facts into plain data (package
// facts), decide with pure functions of them, render without reading
// anything, and write the logs, the state and the event line once.
package hooks

import (
	"strings"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/protocol"
)

// handlers answer the table's rows, by the arguments of each (a
// subcommand and its selecting flag): every row has one
// (TestEveryRowHasAHandler).
var handlers = map[string]func(*Run) protocol.Reply{
	"init":                    text(handleInit),
	"init --compact-recovery": text(handleRecovery),
	"pre-compact":             text(handlePreCompact),
	"post-compact":            text(handlePostCompact),
	"end":                     text(handleEnd),
	"stop":                    handleStop,
	"post-tool":               handlePostTool,
	"model-switch":            handleModelSwitch,
}

// handlerOf is the handler of a row; nil for a row with none.
func handlerOf(e eventtable.Event) func(*Run) protocol.Reply {
	return handlers[strings.Join(e.Args(), " ")]
}

// text is a handler whose answer is text: a start's brief, a snapshot, or
// with --format json the run's facts.
func text(handle func(*Run) string) func(*Run) protocol.Reply {
	return func(r *Run) protocol.Reply {
		out := handle(r)
		if r.JSON {
			return protocol.Facts(out)
		}
		return protocol.Say(out)
	}
}
