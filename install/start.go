package install

import (
	"fmt"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// BelowTop is what a client that reads a project's settings only in the
// directory it starts in (Claude Code 2.1.332, Gemini CLI 0.61.0, Qwen
// Code 0.24.4: each started in a subdirectory ran none of the hooks the
// top's settings wire) does when started in dir: "" at the top of its
// repository, or outside one; else that the project's hooks will not run
// there, and what does. settings names the client's project file.
func BelowTop(dir, client, settings string) string {
	top, below := hookfile.ProjectRoot(dir)
	if !below {
		return ""
	}
	return fmt.Sprintf("%s started here (%s) reads the project's %s here, not at the top of the repository, %s: it runs none of the project's hooks wired there. "+
		"Start %s at %s, or install with --scope user", client, dir, settings, top, client, top)
}
