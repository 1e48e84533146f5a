package transcript

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/session-hooks/session-hooks/safefile"

	"github.com/session-hooks/session-hooks/jsondepth"

	"github.com/session-hooks/session-hooks/agent/claude"

	"github.com/session-hooks/session-hooks/sanitize"

	"github.com/tidwall/gjson"
)

// maxTaskFiles bounds how many task files are read for one session.
const maxTaskFiles = 500

// Tasks reads the task list Claude Code keeps for a session, one JSON file
// per task in <config>/tasks/<session id>/ (versions that replaced TodoWrite
// with TaskCreate/TaskUpdate persist it there). Deleted tasks are left out;
// the list is in task id order. No directory means no list.
func Tasks(configDir, sessionID string) []Todo {
	if configDir == "" || sessionID == "" || filepath.Base(sessionID) != sessionID || sessionID == ".." {
		return nil
	}
	names, _ := filepath.Glob(filepath.Join(claude.TasksDir(configDir, sessionID), "*.json"))
	if len(names) > maxTaskFiles {
		names = names[:maxTaskFiles]
	}
	type task struct {
		id int
		Todo
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
		tasks = append(tasks, task{id, Todo{
			Content: sanitize.Excerpt(gjson.GetBytes(b, "subject").String(), ExcerptRunes),
			Status:  sanitize.Clean(status)}})
	}
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].id < tasks[j].id })
	out := make([]Todo, len(tasks))
	for i, t := range tasks {
		out[i] = t.Todo
	}
	return out
}
