// Package facts holds what a hook run found, as plain data: what git says,
// what the transcript says, what the long-running checks see. Handlers
// gather these values with all reading done, decide with pure functions of
// them, render them without reading anything, and `--format json` marshals
// them as they are. docs/json.md documents every field; a test fails when
// a field is added or renamed without it.
package facts

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// SchemaVersion is the version of the JSON every `--format json` and
// every events.jsonl line carries. It changes when a field changes meaning
// or goes away; adding a field keeps it.
const SchemaVersion = 1

// Run says which hook run the facts are from.
type Run struct {
	Subcommand string `json:"subcommand"`
	Session    string `json:"session_id"`
	Event      string `json:"event"`   // hook_event_name
	Source     string `json:"source"`  // SessionStart
	Trigger    string `json:"trigger"` // PreCompact, PostCompact
	Reason     string `json:"reason"`  // SessionEnd
	Model      string `json:"model"`
	Cwd        string `json:"cwd"`
	Time       string `json:"time"` // RFC 3339, UTC, milliseconds
}

// Probe is one fact read from git, named by the git command it stands for.
type Probe struct {
	Command    string   `json:"command"`
	OK         bool     `json:"ok"`
	Output     []string `json:"output"`
	Error      string   `json:"error"` // why it failed, when !OK
	Note       string   `json:"note"`  // what a partial result left out
	DurationMS float64  `json:"duration_ms"`
}

// Git is the repository as the probes found it.
type Git struct {
	Engine   string   `json:"git_engine"` // how it was read; "" when it could not be opened
	Branch   string   `json:"branch"`     // as git branch --show-current, detached and unborn named
	Upstream string   `json:"upstream"`   // what the branch is compared with; "" when none
	Ahead    *int     `json:"ahead"`      // commits on HEAD not on the upstream; null when unknown
	Behind   *int     `json:"behind"`     // commits on the upstream not on HEAD; null when unknown
	Status   []string `json:"status"`     // git status --short
	// StatusIncomplete says what Status leaves out: why it is partial (a
	// walk cut by the deadline) or missing; "" when it is whole.
	StatusIncomplete string   `json:"status_incomplete"`
	Commits          []string `json:"commits"`   // git log --oneline, newest first
	DiffStat         []string `json:"diff_stat"` // git diff --stat <upstream>...HEAD
	Probes           []Probe  `json:"probes"`
}

// Task is one item of the agent's task list.
type Task struct {
	Content string `json:"content"`
	Status  string `json:"status"` // pending, in_progress, completed
}

// ToolCall is a tool and what it was called with, in one line.
type ToolCall struct {
	Tool  string `json:"tool"`
	Input string `json:"input"`
}

// ToolError is a failed tool call and the start of its error.
type ToolError struct {
	Tool  string `json:"tool"`
	Input string `json:"input"`
	Error string `json:"error"`
}

// Snapshot is the state saved before a compaction and re-injected after
// it: where git stood, and what the transcript says was going on.
type Snapshot struct {
	Branch         string     `json:"branch"`
	Head           string     `json:"head"` // the commit HEAD pointed to; "" when unborn or unknown
	Trigger        string     `json:"trigger"`
	Session        string     `json:"session_id"`
	Time           string     `json:"time"`
	Commits        []string   `json:"recent_commits"` // git log -3
	CommitsError   string     `json:"recent_commits_error"`
	Uncommitted    []string   `json:"uncommitted"` // git diff --name-only HEAD, then the untracked files
	UncommitError  string     `json:"uncommitted_error"`
	AssistantTexts []string   `json:"assistant_texts"` // the latest, oldest first
	LastPrompt     string     `json:"last_prompt"`
	LastPromptAt   string     `json:"last_prompt_at"`   // the request's transcript timestamp; "" when unknown
	TasksChangedAt string     `json:"tasks_changed_at"` // the newest TodoWrite, TaskCreate or TaskUpdate call's; "" when none
	TasksStale     bool       `json:"tasks_stale"`      // the task list predates the request
	PermissionMode string     `json:"permission_mode"`  // the newest the transcript records; "" when none
	Plan           *Plan      `json:"plan"`             // the latest ExitPlanMode since the last compaction; null when none
	PreviousPrompt string     `json:"previous_prompt"`  // the request before a terse one
	FollowUps      []string   `json:"follow_ups"`       // what the user said after the last request
	Tasks          []Task     `json:"tasks"`
	FilesTouched   []string   `json:"files_touched"` // since the last compaction
	OpenError      *ToolError `json:"open_error"`    // the newest tool result, when it failed
	InFlight       *ToolCall  `json:"in_flight"`     // a call at the end with no result yet
	ContextTokens  *int       `json:"context_tokens"`
	ContextWindow  int        `json:"context_window,omitempty"` // the model's, unless configured; with context_tokens
	Notes          []string   `json:"notes"`                    // what the transcript could not tell
}

// Plan is a plan the agent proposed (ExitPlanMode), and whether the user
// approved it.
type Plan struct {
	Text     string `json:"text"`
	Approved bool   `json:"approved"`
}

// Feature is one entry of a long-running project's feature list.
type Feature struct {
	Category    string `json:"category"`
	Description string `json:"description"`
}

// LongRunning is what the long-running checks see at one event.
type LongRunning struct {
	SessionNumber    int       `json:"session_number"` // 0 without a session id
	FeaturesPassing  int       `json:"features_passing"`
	FeaturesTotal    int       `json:"features_total"`
	FeatureList      string    `json:"feature_list"`       // its path, as configured
	FeatureListState string    `json:"feature_list_state"` // ok, missing, or why it was not read
	ContextTokens    *int      `json:"context_tokens"`
	ContextLevel     string    `json:"context_level"`  // "", warn, critical, emergency
	ContextWindow    int       `json:"context_window"` // the model's, unless configured
	Thresholds       [3]int    `json:"thresholds"`     // warn, critical, emergency, in tokens
	NextFailing      []Feature `json:"next_failing"`
	ProgressFile     string    `json:"progress_file"`
	LastProgress     string    `json:"last_progress_entry"`
	Initializer      string    `json:"initializer"`     // the set-up instructions, without a feature list
	SessionCommits   []string  `json:"session_commits"` // since the session started
	SessionFiles     []string  `json:"session_files"`
	UncommittedFiles int       `json:"uncommitted_files"`
	Notes            []string  `json:"notes"`
}

// Init is SessionStart's facts.
type Init struct {
	SchemaVersion int          `json:"schema_version"`
	Run           Run          `json:"run"`
	Git           Git          `json:"git"`
	Start         *Start       `json:"start"`    // what the brief adds to Claude Code's own context
	Recovery      *Recovery    `json:"recovery"` // compact only
	LongRunning   *LongRunning `json:"long_running"`
	Notes         []string     `json:"notes"`
	DurationMS    float64      `json:"duration_ms"`
}

// Start is what a session start adds to the git context Claude Code
// injects itself (branch, status, recent commits).
type Start struct {
	Output       string      `json:"output"`        // brief or full, as configured
	Detached     string      `json:"detached"`      // the commit HEAD is detached at; "" on a branch
	UpstreamGone string      `json:"upstream_gone"` // a configured upstream whose remote branch is gone
	Operations   []Operation `json:"operations"`    // merge, rebase… in progress
	Conflicted   []string    `json:"conflicted"`    // unmerged paths
	Stashes      int         `json:"stashes"`
	NewestStash  []string    `json:"newest_stashes"` // their messages, newest first
	Worktree     *Worktree   `json:"worktree"`       // the linked work tree the session is in; null in the main one
	Worktrees    []Worktree  `json:"worktrees"`      // the other work trees, the main one included
	Resume       *Resume     `json:"resume"`         // resume and fork only
	Handoff      *Handoff    `json:"handoff"`        // startup and clear, when a previous session left one
	HandoffSince *Since      `json:"handoff_since"`  // what git says changed after it
	UpstreamMove bool        `json:"upstream_moved"` // the upstream is not where the previous session left it
}

// Operation is a multi-step git operation in progress.
type Operation struct {
	Kind string `json:"kind"` // merge, rebase, am, cherry-pick, revert, bisect
	Text string `json:"text"` // as git status says it, in one line
}

// Worktree is a linked work tree.
type Worktree struct {
	Path     string `json:"path"`
	Branch   string `json:"branch"`
	Prunable string `json:"prunable"` // why git would prune it (its directory is gone); "" when it stands
	Main     bool   `json:"main"`     // the repository's main work tree
}

// Resume is what Claude Code says of the session it resumes or forks.
type Resume struct {
	Fork                     bool  `json:"fork,omitempty"` // a new session branched from the old one's context
	SecondsSinceLastResponse *int  `json:"seconds_since_last_response"`
	PromptCacheExpired       *bool `json:"prompt_cache_expired"`
	ContextTokens            *int  `json:"context_tokens"`
}

// Handoff is what a session left for the next one, saved by end
// (sessions/<session>/handoff.json).
type Handoff struct {
	Session    string `json:"session_id"`
	EndedAt    string `json:"ended_at"`
	Reason     string `json:"reason"`
	LastPrompt string `json:"last_prompt"`
	// PreviousPrompt is the request a terse last one ("and now?") answers.
	PreviousPrompt string     `json:"previous_prompt"`
	OpenTasks      []Task     `json:"open_tasks"`
	OpenError      *ToolError `json:"open_error"`
	Uncommitted    []string   `json:"uncommitted"` // git status --short
	// UncommittedIncomplete says what Uncommitted leaves out, as
	// Git.StatusIncomplete; "" when it is whole.
	UncommittedIncomplete string `json:"uncommitted_incomplete,omitempty"`
	Branch                string `json:"branch"`
	Head                  string `json:"head"`
	Upstream              string `json:"upstream"`
	UpstreamHead          string `json:"upstream_head"`
}

// Recovery is what SessionStart "compact" found to re-inject.
type Recovery struct {
	Found    bool      `json:"found"`
	Reason   string    `json:"reason"`            // why none is re-injected, when !Found
	Snapshot string    `json:"snapshot_markdown"` // as pre-compact saved it
	Facts    *Snapshot `json:"snapshot"`          // the same as data, when pre-compact saved it
	AgeMS    float64   `json:"age_ms"`            // how long before this run it was taken
	// Since is what git says changed after the snapshot.
	Since *Since `json:"since"`
	// Nonce marks the injected text, so that a later run can tell
	// whether it reached the model (the receipt).
	Nonce string `json:"nonce"`
}

// Since is what changed in git after a snapshot.
type Since struct {
	Commits  []string `json:"commits"`   // made after the snapshot's HEAD, newest first
	NowClean []string `json:"now_clean"` // uncommitted then, unchanged against HEAD now
}

// PreCompact is PreCompact's facts.
type PreCompact struct {
	SchemaVersion int          `json:"schema_version"`
	Run           Run          `json:"run"`
	Git           Git          `json:"git"`
	Snapshot                   // inlined: last_prompt, tasks... at the top level
	LongRunning   *LongRunning `json:"long_running"`
	HookNotes     []string     `json:"hook_notes"`
	DurationMS    float64      `json:"duration_ms"`
}

// PostCompact is PostCompact's facts: the compaction, and which snapshot
// facts its summary does not mention.
type PostCompact struct {
	SchemaVersion int      `json:"schema_version"`
	Run           Run      `json:"run"`
	SummaryChars  int      `json:"summary_chars"`
	SummarySHA256 string   `json:"summary_sha256"` // "" when the summary is empty
	SnapshotFound bool     `json:"snapshot_found"`
	Lost          []string `json:"lost"` // snapshot facts the summary does not mention
	Notes         []string `json:"notes"`
	DurationMS    float64  `json:"duration_ms"`
}

// End is SessionEnd's facts.
type End struct {
	SchemaVersion int          `json:"schema_version"`
	Run           Run          `json:"run"`
	Git           Git          `json:"git"`
	LongRunning   *LongRunning `json:"long_running"`
	Notes         []string     `json:"notes"`
	DurationMS    float64      `json:"duration_ms"`
}

// JSON marshals v for scripts: indented, no HTML escaping (a "<" in a
// commit subject stays "<").
func JSON(v any) string {
	v = withEmptyLists(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return `{"schema_version": 1, "error": "` + err.Error() + `"}` + "\n"
	}
	return b.String()
}

// withEmptyLists returns a copy of v in which every nil slice is an empty
// one, so that JSON says [] for an empty list, never null.
func withEmptyLists(v any) any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return v
	}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	fill(cp)
	return cp.Interface()
}

func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			inner := reflect.New(v.Elem().Type())
			inner.Elem().Set(v.Elem())
			fill(inner.Elem())
			v.Set(inner)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(cp, v)
		for i := 0; i < cp.Len(); i++ {
			fill(cp.Index(i))
		}
		v.Set(cp)
	}
}
