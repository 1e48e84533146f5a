package opencode

// Events are the plugin's OpenCode events for the rows of the event table
// it answers, by the row's arguments. The brief is asked for at a
// session's first request (the system prompt's transform: a resumed
// session fires no session.created) and stays in its system prompt; the
// recovery takes its place once the compaction is done; the handoff, and
// the long-running checks before it, run when the session goes idle (a
// one-shot run ends there).
var Events = map[string]string{
	"init":                    "experimental.chat.system.transform",
	"init --compact-recovery": "session.compacted",
	"pre-compact":             "experimental.session.compacting",
	"end":                     "session.idle",
	"stop":                    "session.idle",
}
