package claude

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/session-hooks/session-hooks/transcript"

	"github.com/session-hooks/session-hooks/internal/safefile"

	"github.com/session-hooks/session-hooks/internal/jsondepth"

	"github.com/session-hooks/session-hooks/internal/sanitize"

	"github.com/tidwall/gjson"
)

// maxTaskFiles bounds how many task files are read for one session.
const maxTaskFiles = 500

// Tasks reads the task list Claude Code keeps for a session, one JSON file
// per task in <config>/tasks/<session id>/ (versions that replaced TodoWrite
// with TaskCreate/TaskUpdate persist it there). Deleted tasks are left out;
// the list is in task id order. No directory means no list.
func Tasks(configDir, sessionID string) []transcript.Todo {
	if configDir == "" || sessionID == "" || filepath.Base(sessionID) != sessionID || sessionID == ".." {
		return nil
	}
	names, _ := filepath.Glob(filepath.Join(TasksDir(configDir, sessionID), "*.json"))
	if len(names) > maxTaskFiles {
		names = names[:maxTaskFiles]
	}
	type task struct {
		id int
		transcript.Todo
	}
	var tasks []task
	for _, n := range names {
		if fi, err := os.Lstat(n); err != nil || !fi.Mode().IsRegular() {
			continue // not through a link either
		}
		b, err := safefile.Read(n, 1<<20)
		if err != nil || jsondepth.Check(b, jsondepth.Max) != nil || !gjson.ValidBytes(b) {
			continue
		}
		status := gjson.GetBytes(b, "status").String()
		if status == "deleted" {
			continue
		}
		id, _ := strconv.Atoi(gjson.GetBytes(b, "id").String())
		tasks = append(tasks, task{id, transcript.Todo{
			Content: sanitize.Excerpt(gjson.GetBytes(b, "subject").String(), transcript.ExcerptRunes),
			Status:  sanitize.Clean(status)}})
	}
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].id < tasks[j].id })
	out := make([]transcript.Todo, len(tasks))
	for i, t := range tasks {
		out[i] = t.Todo
	}
	return out
}
