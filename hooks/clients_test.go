package hooks

import (
	"io"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/agent/codex"
	"github.com/session-hooks/session-hooks/agent/copilot"
	"github.com/session-hooks/session-hooks/agent/gemini"
	"github.com/session-hooks/session-hooks/agent/qwen"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/hooks/protocol"
)

// The core's tests drive it as each client's adapter does; the core
// itself names none (TestTheHouseImportsOneWay). Claude Code's is the
// default of a run a test builds, as the registry's is of a command line.
var (
	Claude  = claude.Adapter
	Codex   = codex.Adapter
	Gemini  = gemini.Adapter
	Copilot = copilot.Adapter
	Qwen    = qwen.Adapter
)

type Agent = protocol.Agent

func init() { defaultAgent = Claude }

// briefHeading is Claude Code's brief's heading.
var briefHeading = headingFor(Claude)

// executeText runs a handler whose answer is text, as the table's text
// handlers are run.
func executeText(stdin io.Reader, stdout io.Writer, e eventtable.Event, handle func(*Run) string, opt Options) {
	execute(stdin, stdout, e, text(handle), opt)
}
