package claude

import (
	"os"

	"github.com/session-hooks/session-hooks/hooks/protocol"
	"github.com/session-hooks/session-hooks/transcript"
)

// Adapter is Claude Code's side of the contract, the default client: its
// payload and replies are the shared shapes, and it gives the model the
// branch, the status and recent commits itself.
var Adapter = protocol.Agent{Name: "claude", Label: "Claude Code", GitContext: true,
	Versions: "2.1.330–2.1.332",
	Gets:     "the brief at startup, resume, clear and fork; the recovery right after a compaction; the handoff; the long-running checks",
	NotYet:   "—",
	Budget:   Budget, ProjectDirEnv: EnvProjectDir, WritesLate: true, KeepsRunsStarts: true,
	EchoesManualCompact: true,
	Tags: []string{"system-reminder", "command-name", "command-message", "command-args", "local-command-stdout",
		"local-command-caveat", "task-notification", "functions", "tools-used-before-summary"},
	Read: Read, ContextUsage: ContextUsage, Injected: Injected,
	Tasks:         tasksOf,
	ContextWindow: ContextWindow,
	Remote:        func(getenv func(string) string) bool { return getenv(EnvRemote) == "true" },
	ForkParent:    ForkParent,
}

// tasksOf is the task list Claude Code keeps for the session, under the
// configuration directory its transcript is in (else the user's).
func tasksOf(transcriptPath, sessionID string, getenv func(string) string) []transcript.Todo {
	configDir := ConfigDirOf(transcriptPath)
	if configDir == "" {
		configDir, _ = ConfigDir(getenv, os.UserHomeDir)
	}
	return Tasks(configDir, sessionID)
}
