package claude

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Settings scopes, most shared first.
var Scopes = []string{"project", "local", "user"}

// SettingsPath is the settings file of a scope: the project's shared
// settings, its personal ones, or the user's.
func SettingsPath(scope, project string, getenv func(string) string, home func() (string, error)) (string, error) {
	switch scope {
	case "project":
		return filepath.Join(project, ".claude", "settings.json"), nil
	case "local":
		return filepath.Join(project, ".claude", "settings.local.json"), nil
	case "user":
		dir, err := ConfigDir(getenv, home)
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, "settings.json"), nil
	}
	last := len(Scopes) - 1
	return "", fmt.Errorf("unknown scope %q: use %s or %s", scope, strings.Join(Scopes[:last], ", "), Scopes[last])
}

// ConfigDir is Claude Code's configuration directory: $CLAUDE_CONFIG_DIR,
// else ~/.claude.
func ConfigDir(getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv(EnvConfigDir); d != "" {
		return d, nil
	}
	h, err := home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, ".claude"), nil
}

// ConfigDirOf is the configuration directory a transcript lives under
// (<config>/projects/<project>/<session>.jsonl); "" when the path does
// not say.
func ConfigDirOf(transcriptPath string) string {
	if transcriptPath == "" {
		return ""
	}
	projects := filepath.Dir(filepath.Dir(transcriptPath))
	if filepath.Base(projects) != "projects" {
		return ""
	}
	return filepath.Dir(projects)
}

// TranscriptsDir is where Claude Code keeps a project's transcripts:
// <config>/projects/<the path with every / replaced by ->.
func TranscriptsDir(configDir, project string) string {
	return filepath.Join(configDir, "projects", strings.ReplaceAll(project, "/", "-"))
}

// TasksDir is where versions with TaskCreate/TaskUpdate persist a
// session's task list, one JSON file per task.
func TasksDir(configDir, sessionID string) string {
	return filepath.Join(configDir, "tasks", sessionID)
}
