package qwen

// Events are Qwen Code's hooks for the rows of the event table they
// answer, by the row's arguments, in Claude Code's names. Qwen Code fires
// SessionStart "compact" after a compaction without waiting for it (the
// requests that follow go out before its context is applied, and a
// one-shot run ends first), so the recovery rides the first prompt or
// tool result after the compaction instead, as for a client with no
// event after one.
var Events = map[string][]string{
	"init":                    {"SessionStart"},
	"init --compact-recovery": {"UserPromptSubmit", "PostToolUse"},
	"pre-compact":             {"PreCompact"},
	"end":                     {"SessionEnd"},
	"stop":                    {"Stop"},
}
