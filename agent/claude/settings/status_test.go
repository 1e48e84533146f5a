package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// statusOf is ReadStatus of a project whose settings files are given by
// scope (project, local, user); the binary wired is a real executable.
func statusOf(t *testing.T, files map[string]string) Status {
	t.Helper()
	config, project := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	paths := map[string]string{"project": filepath.Join(project, ".claude", "settings.json"),
		"local": filepath.Join(project, ".claude", "settings.local.json"), "user": filepath.Join(config, "settings.json")}
	for scope, doc := range files {
		if doc == "dir" {
			os.MkdirAll(paths[scope], 0o755)
			continue
		}
		if err := os.WriteFile(paths[scope], []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := Env{Dir: project, Getenv: func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return config
		}
		return ""
	}, Home: func() (string, error) { return t.TempDir(), nil }}
	return ReadStatus(env, "")
}

// installed is settings with every default entry for a binary that exists.
func installed(t *testing.T) string {
	t.Helper()
	sh, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "session-hooks")
	if err := os.Symlink(sh, bin); err != nil {
		t.Fatal(err)
	}
	return wiredDoc(hookfile.Desired(bin, false))
}

func scopeNamed(st Status, name string) ScopeStatus {
	for _, s := range st.Scopes {
		if s.Scope == name {
			return s
		}
	}
	return ScopeStatus{}
}

func TestStatusSaysWhatEachScopeHoldsAndWhatIsWrong(t *testing.T) {
	full := installed(t)
	tests := []struct {
		name     string
		files    map[string]string
		scope    string
		state    string
		warnings []string // each a part of one warning, in order
	}{
		{"installed in the project: nothing to say", map[string]string{"project": full}, "project", "present", nil},
		{"a settings file with a comment is not loaded, and its hooks count for nothing", map[string]string{"project": "// mine\n" + full},
			"project", "not-loaded", []string{"project (", "is not loaded by Claude Code: line 1: a comment (//)", "--scope project --rewrite-strict",
				"no scope wires SessionStart"}},
		{"unreadable JSON", map[string]string{"user": `{"hooks": [`}, "user", "unreadable", []string{"no scope wires SessionStart"}},
		{"no file", nil, "local", "absent", []string{"no scope wires SessionStart"}},
		{"a directory where the file should be", map[string]string{"project": full, "local": "dir"}, "local", "unreadable", nil},
		{"SessionEnd without a timeout", map[string]string{"project": strings.Replace(full, `"timeout": 5`, `"x": 5`, 1)},
			"project", "present", []string{"project: SessionEnd has no timeout"}},
		{"wired twice", map[string]string{"project": full, "local": full}, "local", "present", []string{"is wired twice (project and local)"}},
		{"a program that does not exist", map[string]string{"project": wiredDoc(hookfile.Desired("/nonexistent/session-hooks", false))},
			"project", "present", []string{"project: /nonexistent/session-hooks does not exist or is not executable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := statusOf(t, tt.files)
			if s := scopeNamed(st, tt.scope); s.State != tt.state {
				t.Errorf("%s is %q (%s), want %q", tt.scope, s.State, s.Error, tt.state)
			}
			all := strings.Join(st.Warnings, "\n")
			for _, w := range tt.warnings {
				i := strings.Index(all, w)
				if i < 0 {
					t.Errorf("no %q in the warnings:\n%s", w, all)
					continue
				}
				all = all[i+len(w):]
			}
			if len(tt.warnings) == 0 && len(st.Warnings) > 0 {
				t.Errorf("warnings: %q", st.Warnings)
			}
		})
	}
}

func TestStatusListsTheHooksOfAFileClaudeCodeDoesNotLoadWithoutTimeouts(t *testing.T) {
	st := statusOf(t, map[string]string{"project": "// mine\n" + installed(t)})
	s := scopeNamed(st, "project")
	if len(s.Hooks) == 0 {
		t.Fatal("its hooks are not listed")
	}
	for _, h := range s.Hooks {
		if h.Timeout != nil {
			t.Errorf("%s lists a timeout from a file Claude Code does not load", h.Event)
		}
	}
	st = statusOf(t, map[string]string{"project": installed(t)})
	for _, h := range scopeNamed(st, "project").Hooks {
		if h.Timeout == nil || *h.Timeout <= 0 {
			t.Errorf("%s: timeout %v", h.Event, h.Timeout)
		}
	}
}

// wiredDoc is settings holding the entries, as install writes them.
func wiredDoc(entries []hookfile.Entry) string {
	res, _ := hookfile.Install(nil, entries, "")
	return string(res.JSON)
}

// The user's settings are read where they are, links followed (a
// ~/.claude kept in a dotfiles repository), even when the project is the
// home directory; a project's .claude linked out of it is not read.
func TestTheUsersSettingsAreReadThroughTheirLinks(t *testing.T) {
	home, dotfiles := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dotfiles, "settings.json"), []byte(`{"hooks": {"SessionEnd": [{"matcher": "", "hooks": [{"type": "command", "command": "session-hooks end", "timeout": 5}]}]}}`), 0o644)
	if err := os.Symlink(dotfiles, filepath.Join(home, ".claude")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, dir := range []string{home, t.TempDir()} {
		env := Env{Dir: dir, Getenv: func(string) string { return "" }, Home: func() (string, error) { return home, nil }}
		st, _ := readScopes(env)
		for _, sc := range st.Scopes {
			if sc.Scope == "user" && sc.State != "present" {
				t.Errorf("from %s: the user's settings through a link: %s %s", dir, sc.State, sc.Error)
			}
		}
	}
}
