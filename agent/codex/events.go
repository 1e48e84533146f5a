package codex

// Events are Codex CLI's hooks for the rows of the event table they
// answer, by the row's arguments: Codex names its events as Claude Code
// does, and takes the same matchers.
var Events = map[string]string{
	"init":                    "SessionStart",
	"init --compact-recovery": "SessionStart",
	"pre-compact":             "PreCompact",
	"end":                     "SessionEnd",
	"stop":                    "Stop",
}

// MaxTimeout caps an event's timeout where Codex CLI stops the hook
// sooner: it gives SessionEnd 3 seconds at most.
var MaxTimeout = map[string]int{"SessionEnd": 3}
