package claude

import (
	"fmt"
	"strings"

	"github.com/session-hooks/session-hooks/transcript"
)

// Limit is the most Claude Code injects: a longer output (plain or
// additionalContext) is replaced by a 2 KB preview and a file path.
// Budget is what session-hooks prints at most, with some margin.
const (
	Limit  = 10000
	Budget = 9500
)

// Environment variables Claude Code sets for hooks, or reads itself.
const (
	EnvProjectDir = "CLAUDE_PROJECT_DIR" // the directory Claude Code was launched in
	EnvConfigDir  = "CLAUDE_CONFIG_DIR"  // its configuration directory, when not ~/.claude
	// EnvDisable1M, set, holds every 1M-token model at 200,000 tokens.
	EnvDisable1M = "CLAUDE_CODE_DISABLE_1M_CONTEXT"
	EnvRemote    = "CLAUDE_CODE_REMOTE" // "true" in Claude Code on the web
)

// ContextWindow is the context window of a model as Claude Code names it,
// in tokens (transcript.ModelWindow); with CLAUDE_CODE_DISABLE_1M_CONTEXT
// set (getenv reads it), Claude Code holds every model at 200,000.
func ContextWindow(model string, getenv func(string) string) int {
	w := transcript.ModelWindow(model)
	if v := getenv(EnvDisable1M); w > 200_000 && v != "" && v != "0" && !strings.EqualFold(v, "false") {
		return 200_000
	}
	return w
}

// execFormSince is the first version known to run a hook's exec form
// ("command" plus "args", no shell): the one the e2e suite drives.
var execFormSince = [3]int{2, 1, 330}

// RunsExecForm says whether `claude --version` output ("2.1.330 (Claude
// Code)") names a version that runs hooks in the exec form.
func RunsExecForm(versionOutput string) bool {
	var v [3]int
	fields := strings.Fields(versionOutput)
	if len(fields) == 0 {
		return false
	}
	if n, _ := fmt.Sscanf(fields[0], "%d.%d.%d", &v[0], &v[1], &v[2]); n != 3 {
		return false
	}
	for i := range v {
		if v[i] != execFormSince[i] {
			return v[i] > execFormSince[i]
		}
	}
	return true
}
