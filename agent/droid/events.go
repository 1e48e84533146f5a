package droid

// Events are Factory Droid's hooks for the rows of the event table they
// answer, by the row's arguments, in Claude Code's names. Droid runs a
// request after every tool result, and compacts before one with no hook
// of its own: the snapshot is taken on PostToolUse (and on PreCompact,
// where a compaction has one), the recovery given on the next
// PostToolUse or prompt. Hooks of one event run at once.
var Events = map[string][]string{
	"init":                    {"SessionStart"},
	"init --compact-recovery": {"PostToolUse", "UserPromptSubmit"},
	"pre-compact":             {"PostToolUse", "PreCompact"},
	"end":                     {"SessionEnd"},
	"stop":                    {"Stop"},
}
