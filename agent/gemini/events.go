package gemini

// Events are Gemini CLI's hooks for the rows of the event table they
// answer, by the row's arguments: the brief at a start, the recovery
// before a prompt (BeforeAgent: there is no event after a compression),
// the snapshot before a request (PreCompress), the end, and the
// long-running checks after the agent's answer (AfterAgent, whose
// {"decision": "block", "reason"} is sent to the agent as a new prompt).
var Events = map[string]string{
	"init":                    "SessionStart",
	"init --compact-recovery": "BeforeAgent",
	"pre-compact":             "PreCompress",
	"end":                     "SessionEnd",
	"stop":                    "AfterAgent",
}
