package claude

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/transcript"

	"github.com/tidwall/gjson"

	"github.com/session-hooks/session-hooks/internal/sanitize"
)

// collector gathers facts from lines seen newest first. Tool results come
// before (newer than) the calls they answer, so results are remembered by
// call id until their call is met.
type collector struct {
	sideAsMain         bool
	mainChat, sideChat int // chat entries seen, for spotting a subagent's own file

	texts        []string // newest first
	prompt       string
	promptFound  bool
	previous     string
	wantPrevious bool       // the prompt is terse: find the one that set the work
	followUps    []followUp // newest first
	todos        []transcript.Todo
	todosFound   bool
	taskCalls    []taskCall // newest first
	files        []string   // newest first
	seenFiles    map[string]bool
	pastBoundary bool // lines from here on are older than the last compaction

	results map[string]result // tool results by call id

	errorDecided bool
	openError    *transcript.ToolError
	// at is the timestamp of the entry being read; promptAt, tasksAt and
	// permissionMode the newest ones found of each.
	at, promptAt, tasksAt, permissionMode string
	plan                                  *transcript.Plan
	// errorBeforeRequest: the request is newer than the open error.
	errorBeforeRequest bool
	errorCall          string // the call id whose name and input the error needs
	inFlight           *transcript.ToolCall
	newerSeen          bool // a main-chain block newer than any call met so far

	usage        transcript.Usage
	usageDecided bool
	notes        []string
}

// followUp is what the user said after the request, read from a tool
// result. An answer counts only once its call is met and is Claude Code's
// AskUserQuestion (askCall is then cleared): any other tool's result can
// hold an "answers" field of its own making.
type followUp struct {
	text    string
	askCall string
}

// result is what a tool result says of its call.
type result struct {
	isError  bool
	taskID   string // TaskCreate: the id Claude Code gave the task
	approved bool   // ExitPlanMode: the user approved the plan
}

// taskCall is one TaskCreate or TaskUpdate whose result succeeded.
type taskCall struct {
	create bool
	id     string // TaskUpdate: taskId; TaskCreate: from its result
	input  gjson.Result
}

func newCollector(sideAsMain bool) *collector {
	return &collector{sideAsMain: sideAsMain, seenFiles: map[string]bool{}, results: map[string]result{}}
}

// recentDone says when every fact but the task list and the permission
// mode is settled; done, when walking further back cannot change any fact.
// A TodoWrite list or a task created long ago, and a permission mode set
// before the last compaction (Claude Code records it on the requests that
// set it, not on every line), can only be found by walking back to them.
func (c *collector) recentDone() bool {
	return len(c.texts) >= maxTexts && c.promptFound && !c.wantPrevious && c.pastBoundary &&
		c.errorDecided && c.usageDecided
}

func (c *collector) done() bool { return c.recentDone() && c.todosFound && c.permissionMode != "" }

// wants filters lines before parsing, once only the task list is left to
// find: only lines naming a task tool or a task can still matter.
func (c *collector) wants(line []byte) bool {
	if !c.recentDone() {
		return true
	}
	return !c.todosFound && (bytes.Contains(line, []byte("ask")) || bytes.Contains(line, []byte("TodoWrite"))) ||
		c.permissionMode == "" && bytes.Contains(line, []byte(`"permissionMode"`))
}

func (c *collector) add(line []byte, newest bool) {
	if !wholeObject(line, newest) {
		return // torn (being written) or foreign
	}
	entry := entryOf(parse(line))
	c.at = entry.timestamp
	if c.permissionMode == "" && entry.permissionMode != "" && !entry.sidechain {
		c.permissionMode = strings.Clone(sanitize.Excerpt(entry.permissionMode, 40))
	}
	switch entry.typ {
	case "system":
		if entry.subtype == "compact_boundary" {
			c.pastBoundary = true
			c.usageDecided = true // nothing before it says what the context holds now
		}
	case "user":
		c.userEntry(entry)
	case "assistant":
		c.assistantEntry(entry)
	}
}

// entry is the top-level fields of a transcript line that the rules read,
// found in one pass over the line: a tool result can be megabytes long, and
// each absent field looked up by name was one more pass over all of it.
type entry struct {
	typ, subtype                    string
	sidechain, meta, compactSummary bool
	apiError                        bool   // isApiErrorMessage: Claude Code's, not the model's
	timestamp, permissionMode       string // as the entry records them
	message, toolUseResult          gjson.Result
}

func entryOf(root gjson.Result) entry {
	var e entry
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			e.typ = v.Str
		case "subtype":
			e.subtype = v.Str
		case "isSidechain":
			e.sidechain = v.Bool()
		case "isMeta":
			e.meta = v.Bool()
		case "isCompactSummary":
			e.compactSummary = v.Bool()
		case "message":
			e.message = v
		case "toolUseResult":
			e.toolUseResult = v
		case "isApiErrorMessage":
			e.apiError = v.Bool()
		case "timestamp":
			e.timestamp = v.Str
		case "permissionMode":
			e.permissionMode = v.Str
		}
		return true
	})
	return e
}

// approvesPlan says whether a tool result is the user's approval of a
// plan (ExitPlanMode), looking at the start of its text only.
func approvesPlan(b toolResultBlock) bool {
	raw := b.block.Get("content").Raw
	return strings.Contains(raw[:min(len(raw), 120)], "User has approved your plan")
}

// usageIn is a reply's context size; false when it has none, or counts
// no model reports.
func usageIn(message gjson.Result) (transcript.Usage, bool) {
	u := message.Get("usage")
	if !u.Exists() {
		return transcript.Usage{}, false
	}
	tokens := 0
	for _, k := range []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} {
		n, ok := TokenCount(u.Get(k))
		if !ok {
			return transcript.Usage{}, false
		}
		tokens += n
	}
	out, _ := TokenCount(u.Get("output_tokens"))
	return transcript.Usage{Known: true, Tokens: tokens, Output: out, Model: strings.Clone(message.Get("model").String())}, true
}

// side says whether an entry is a subagent's, counting chat entries.
func (c *collector) side(entry entry) bool {
	if entry.sidechain && !c.sideAsMain {
		c.sideChat++
		return true
	}
	c.mainChat++
	return false
}

func (c *collector) assistantEntry(entry entry) {
	side := c.side(entry)
	// Claude Code's own texts in the agent's place: "No response
	// requested.", API errors. They are never the agent's words.
	if entry.apiError || entry.message.Get("model").Str == "<synthetic>" {
		return
	}
	if !side && !c.usageDecided && !c.pastBoundary {
		if u, ok := usageIn(entry.message); ok {
			c.usage, c.usageDecided = u, true
		}
	}
	blocks := entry.message.Get("content").Array()
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		switch b.Get("type").String() {
		case "text":
			if !side {
				c.text(b.Get("text").String())
				c.newerSeen = true
			}
		case "tool_use":
			c.toolUse(b, side)
		}
	}
}

func (c *collector) text(s string) {
	if len(c.texts) >= maxTexts || strings.TrimSpace(s) == "" {
		return
	}
	n := transcript.ExcerptRunes
	if len(c.texts) == 0 {
		n = transcript.LatestRunes
	}
	c.texts = append(c.texts, sanitize.Excerpt(s, n))
}

func (c *collector) toolUse(b gjson.Result, side bool) {
	id, name, input := b.Get("id").String(), b.Get("name").String(), b.Get("input")
	res, answered := c.results[id]
	if !side {
		c.confirmAnswers(id, name)
		if !c.newerSeen && !answered && c.inFlight == nil {
			c.inFlight = &transcript.ToolCall{Tool: sanitize.Excerpt(name, 80), Input: callInput(name, input)}
		}
		c.newerSeen = true
		if id != "" && id == c.errorCall && c.openError != nil {
			c.openError.Tool, c.openError.Input = sanitize.Excerpt(name, 80), callInput(name, input)
		}
	}
	// A failed call changed no list: Claude Code 2.1.332 disables
	// TodoWrite, and a call the model makes anyway fails.
	failed := answered && res.isError
	if !side && !failed && c.tasksAt == "" && (name == "TodoWrite" || name == "TaskCreate" || name == "TaskUpdate") {
		c.tasksAt = strings.Clone(c.at)
	}
	switch name {
	case "ExitPlanMode":
		if !side && c.plan == nil && !c.pastBoundary {
			if text := input.Get("plan").Str; text != "" {
				c.plan = &transcript.Plan{Text: sanitize.Middle(sanitize.Clean(strings.TrimSpace(text)), transcript.RequestRunes), Approved: answered && res.approved}
			}
		}
	case "TodoWrite":
		if !side && !c.todosFound && !failed {
			c.todosFound = true
			for _, t := range input.Get("todos").Array() {
				c.todos = append(c.todos, transcript.Todo{Content: sanitize.Excerpt(t.Get("content").String(), transcript.TaskRunes),
					Status: strings.Clone(sanitize.Clean(t.Get("status").String()))})
			}
		}
	case "TaskCreate", "TaskUpdate":
		if !side && answered && !res.isError && len(c.taskCalls) < maxTaskCalls {
			call := taskCall{create: name == "TaskCreate", id: res.taskID, input: gjson.Parse(strings.Clone(input.Raw))}
			if !call.create {
				call.id = input.Get("taskId").String()
			}
			c.taskCalls = append(c.taskCalls, call)
		}
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		if c.pastBoundary || !answered || res.isError || len(c.files) >= transcript.MaxFiles {
			return // older than the compaction, in flight, or failed
		}
		p := input.Get("file_path").String()
		if p == "" {
			p = input.Get("notebook_path").String()
		}
		if p = strings.Clone(sanitize.Path(p, maxPathRunes)); p != "" && !c.seenFiles[p] {
			c.seenFiles[p] = true
			c.files = append(c.files, p)
		}
	}
}

// callInput says in one line what a call was made with: the command, the
// file, the pattern, else its input as JSON.
func callInput(name string, input gjson.Result) string {
	for _, k := range []string{"command", "file_path", "notebook_path", "pattern", "url", "description"} {
		if v := input.Get(k); v.Type == gjson.String && v.Str != "" {
			return sanitize.Excerpt(v.Str, transcript.InputRunes)
		}
	}
	if !input.Exists() {
		return ""
	}
	return sanitize.Excerpt(input.Raw, transcript.InputRunes)
}

func (c *collector) userEntry(entry entry) {
	side := c.side(entry)
	if entry.meta || entry.compactSummary {
		return
	}
	content := entry.message.Get("content")
	if content.IsArray() {
		var last *toolResultBlock
		content.ForEach(func(_, b gjson.Result) bool {
			if r := toolResultOf(b); r != nil {
				last = r
				// Clone: a substring would keep the whole line, a large
				// tool result, alive for the rest of the walk.
				c.results[strings.Clone(r.id)] = result{isError: r.isError,
					taskID:   strings.Clone(entry.toolUseResult.Get("task.id").String()),
					approved: approvesPlan(*r)}
			}
			return true
		})
		if last != nil {
			if !side {
				c.toolResult(entry, *last)
			}
			return // a tool's answer, not the user's words
		}
	}
	if side {
		return
	}
	kind, text := promptOf(content)
	if kind != promptReal && kind != promptCommand {
		return
	}
	c.newerSeen = true
	switch {
	case !c.promptFound:
		c.prompt, c.promptFound = text, true
		c.promptAt = strings.Clone(entry.timestamp)
		c.wantPrevious = transcript.Terse(text)
	case c.wantPrevious:
		// Back past "go on" and "what next?" to the request that set the
		// work; the one just before when none did.
		if c.previous == "" {
			c.previous = text
		}
		if !transcript.Terse(text) {
			c.previous, c.wantPrevious = text, false
		}
	}
}

// toolResult reads a main-chain tool result: the open error when it is
// the newest, and the user's words when it rejects a call or answers a
// question after the last request.
// toolResultBlock is a tool_result content block.
type toolResultBlock struct {
	id      string
	isError bool
	block   gjson.Result // its content is read only when needed
}

// toolResultOf reads a block when it is a tool result, else nil. Fields
// are looked up by name, not iterated: iterating would unescape the whole
// content of every result, which is rarely read.
func toolResultOf(b gjson.Result) *toolResultBlock {
	if b.Get("type").Str != "tool_result" {
		return nil
	}
	return &toolResultBlock{id: b.Get("tool_use_id").Str, isError: b.Get("is_error").Bool(), block: b}
}

func (c *collector) toolResult(entry entry, b toolResultBlock) {
	c.newerSeen = true
	if c.errorDecided && (c.promptFound || len(c.followUps) >= maxFollowUps) {
		return // nothing more to learn from a result; skip reading its text
	}
	text := resultText(b.block.Get("content"))
	if !c.errorDecided {
		c.errorDecided = true
		if b.isError && !isRejection(text) {
			c.openError = &transcript.ToolError{Error: sanitize.Excerpt(stripReminders(text), transcript.ErrorRunes)}
			c.errorCall = strings.Clone(b.id)
			c.errorBeforeRequest = c.promptFound // newest first: the request met already is newer
		}
	}
	if c.promptFound || len(c.followUps) >= maxFollowUps {
		return
	}
	if words := rejectionWords(text, b.isError); words != "" {
		c.followUps = append(c.followUps, followUp{text: sanitize.Excerpt(words, transcript.PromptRunes)})
	}
	if answers := entry.toolUseResult.Get("answers"); answers.IsObject() && b.id != "" && !b.isError {
		var parts []string
		answers.ForEach(func(q, a gjson.Result) bool {
			parts = append(parts, "“"+q.String()+"” → "+a.String())
			return true
		})
		c.followUps = append(c.followUps, followUp{text: sanitize.Excerpt("Answered: "+strings.Join(parts, "; "), transcript.PromptRunes), askCall: strings.Clone(b.id)})
	}
}

// confirmAnswers keeps the answers read from the results of call id when
// the call is AskUserQuestion.
func (c *collector) confirmAnswers(id, name string) {
	for i := range c.followUps {
		if c.followUps[i].askCall == id && name == "AskUserQuestion" {
			c.followUps[i].askCall = ""
		}
	}
}

// resultText is a tool result's content as text.
func resultText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	var parts []string
	for _, x := range content.Array() {
		if t := x.Get("text"); t.Exists() {
			parts = append(parts, t.String())
		}
	}
	return strings.Join(parts, " ")
}

// rejectedPrefix begins every result Claude Code writes for a call the
// user refused. A tool's own output never begins there: a command's error
// begins with its exit code, a file read with line numbers, and a
// successful result is no rejection at all.
const rejectedPrefix = "The user doesn't want to proceed with this tool use."

// isRejection: the user refused the call, which is a decision, not an
// error to fix. Only Claude Code's own wording at the very start of an
// error result counts, not the words anywhere in a tool's output.
func isRejection(text string) bool {
	return strings.HasPrefix(text, rejectedPrefix) || strings.HasPrefix(strings.ToLower(text), "user rejected")
}

// rejectionWords are what the user typed when rejecting a call, if any:
// the text after the first line, when that line is Claude Code's
// rejection ending "the user said:".
func rejectionWords(text string, isError bool) string {
	if !isError || !strings.HasPrefix(text, rejectedPrefix) {
		return ""
	}
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || !strings.HasSuffix(first, "the user said:") {
		return ""
	}
	return strings.TrimSpace(rest)
}

// Kinds of user entries that are not tool results.
const (
	promptNoise = iota
	promptReal
	promptCommand
	promptBuiltin
)

// Text a user entry starts with when Claude Code wrote it, not the user:
// command output and caveats, interruptions, notifications, hook feedback,
// bash-mode echoes.
var noisePrefixes = []string{"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"Caveat: The messages below were generated", interrupted, "<system-reminder>",
	"<task-notification>", "<bash-input>", "<bash-stdout>", "<bash-stderr>", "<user-prompt-submit-hook>",
	"Operation stopped by hook", "Stop hook feedback", "PreToolUse:", "PostToolUse:"}

// builtins are Claude Code's own commands, which are not requests about
// the work when they come without arguments.
var builtins = map[string]bool{"/compact": true, "/clear": true, "/context": true, "/cost": true, "/model": true,
	"/status": true, "/help": true, "/exit": true, "/resume": true, "/login": true, "/mcp": true, "/config": true,
	"/ide": true, "/permissions": true, "/hooks": true, "/memory": true, "/doctor": true, "/usage": true}

var (
	reminders   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<system-reminder>.*?</system-reminder>`) })
	commandName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<command-name>(.*?)</command-name>`) })
	commandArgs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<command-args>(.*?)</command-args>`) })
)

func stripReminders(s string) string { return strings.TrimSpace(reminders().ReplaceAllString(s, "")) }

// promptOf classifies a user entry's text and returns the request in it.
func promptOf(content gjson.Result) (int, string) {
	var text string
	if content.Type == gjson.String {
		text = content.Str
	} else {
		var parts []string
		for _, b := range content.Array() {
			if b.Get("type").String() == "text" {
				parts = append(parts, b.Get("text").String())
			}
		}
		text = strings.Join(parts, "\n")
	}
	s := stripReminders(text)
	if s == "" {
		return promptNoise, ""
	}
	// Claude Code writes a slash command as its own tags, first thing in
	// the entry; a request that mentions <command-name> is a request.
	if m := commandName().FindStringSubmatch(s); m != nil && strings.HasPrefix(s, "<command-") {
		name, args := strings.TrimSpace(m[1]), ""
		if a := commandArgs().FindStringSubmatch(s); a != nil {
			args = strings.TrimSpace(a[1])
		}
		if builtins[name] && args == "" {
			return promptBuiltin, ""
		}
		return promptCommand, transcript.Request(strings.TrimSpace(name + " " + args))
	}
	// "[Request interrupted by user]" followed by words is the request
	// the user typed after interrupting.
	if rest, ok := strings.CutPrefix(s, interrupted); ok {
		if _, after, closed := strings.Cut(rest, "]"); closed && strings.TrimSpace(after) != "" {
			return promptReal, transcript.Request(after)
		}
	}
	for _, p := range noisePrefixes {
		if strings.HasPrefix(s, p) {
			return promptNoise, ""
		}
	}
	return promptReal, transcript.Request(s)
}

const interrupted = "[Request interrupted by user"

// finish returns the facts, oldest first where order matters.
func (c *collector) finish() *transcript.Facts {
	f := &transcript.Facts{LastPromptAt: c.promptAt, TasksChangedAt: c.tasksAt, PermissionMode: c.permissionMode, Plan: c.plan, LastPrompt: c.prompt, PreviousPrompt: c.previous, Todos: c.todos, OpenError: c.openError, ErrorBeforeRequest: c.errorBeforeRequest,
		InFlight: c.inFlight, Usage: c.usage, Notes: c.notes}
	for i := len(c.texts) - 1; i >= 0; i-- {
		f.Texts = append(f.Texts, c.texts[i])
	}
	for i := len(c.followUps) - 1; i >= 0; i-- {
		if c.followUps[i].askCall == "" {
			f.FollowUps = append(f.FollowUps, c.followUps[i].text)
		}
	}
	for i := len(c.files) - 1; i >= 0; i-- {
		f.FilesTouched = append(f.FilesTouched, c.files[i])
	}
	f.Tasks = replayTasks(c.taskCalls)
	return f
}

// replayTasks rebuilds the task list from its calls, oldest first, as
// Claude Code keeps it: a TaskCreate adds a pending task (numbered by its
// result, else in order), a TaskUpdate changes its subject or status,
// deleted tasks are left out; the list is in id order.
func replayTasks(newestFirst []taskCall) []transcript.Todo {
	if len(newestFirst) == 0 {
		return nil
	}
	type task struct {
		id      string
		subject string
		status  string
	}
	var order []string
	tasks := map[string]*task{}
	for i := len(newestFirst) - 1; i >= 0; i-- {
		call := newestFirst[i]
		if call.create {
			id := call.id
			if id == "" {
				id = strconv.Itoa(len(tasks) + 1)
			}
			if _, ok := tasks[id]; !ok {
				order = append(order, id)
			}
			tasks[id] = &task{id: id, subject: call.input.Get("subject").String(), status: "pending"}
			continue
		}
		t := tasks[call.id]
		if t == nil {
			continue
		}
		if s := call.input.Get("status"); s.Exists() {
			t.status = s.String()
		}
		if s := call.input.Get("subject"); s.Exists() {
			t.subject = s.String()
		}
	}
	sortByNumber(order)
	var out []transcript.Todo
	for _, id := range order {
		t := tasks[id]
		if t.status == "deleted" {
			continue
		}
		out = append(out, transcript.Todo{Content: sanitize.Excerpt(t.subject, transcript.TaskRunes), Status: sanitize.Clean(t.status)})
	}
	return out
}

// sortByNumber orders task ids as numbers, ids that are not numbers first,
// as Claude Code's task directory sorts.
func sortByNumber(ids []string) {
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0
		}
		return n
	}
	sort.SliceStable(ids, func(i, j int) bool { return num(ids[i]) < num(ids[j]) })
}
