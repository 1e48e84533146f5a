package install

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestTheCommandInstalledWorksWhereverTheSettingsGo(t *testing.T) {
	project := "/home/u/proj"
	exe := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }
	onPath := func(p string) func(string) (string, error) {
		return func(string) (string, error) {
			if p == "" {
				return "", os.ErrNotExist
			}
			return p, nil
		}
	}
	tests := []struct {
		name, scope, exe, onPath, want, err string
	}{
		{"project, the binary on PATH", "project", "/usr/local/bin/session-hooks", "/usr/local/bin/session-hooks", "session-hooks", ""},
		{"project, a binary inside it", "project", project + "/bin/session-hooks", "", `"$CLAUDE_PROJECT_DIR"/bin/session-hooks`, ""},
		{"project, a binary only this machine has", "project", "/home/u/go/bin/session-hooks", "/usr/bin/session-hooks", "", "neither on PATH nor inside the project"},
		{"project, npm's command for this binary, installed globally", "project",
			"/usr/lib/node_modules/session-hooks/node_modules/@session-hooks/linux-x64/bin/session-hooks",
			"/usr/lib/node_modules/session-hooks/bin/session-hooks.js", "session-hooks", ""},
		{"project, npm's command for this binary, installed in a project", "project",
			"/home/u/web/node_modules/@session-hooks/darwin-arm64/bin/session-hooks",
			"/home/u/web/node_modules/session-hooks/bin/session-hooks.js", "session-hooks", ""},
		{"project, npm's command of another install", "project",
			"/home/u/web/node_modules/@session-hooks/linux-x64/bin/session-hooks",
			"/usr/lib/node_modules/session-hooks/bin/session-hooks.js", "", "neither on PATH nor inside the project"},
		{"project, another package's command", "project",
			"/home/u/web/node_modules/@session-hooks/linux-x64/bin/session-hooks",
			"/home/u/web/node_modules/other/bin/session-hooks.js", "", "neither on PATH nor inside the project"},
		{"local may use the absolute path", "local", "/home/u/my tools/session-hooks", "", "'/home/u/my tools/session-hooks'", ""},
		{"npx's copy is refused", "user", "/home/u/.npm/_npx/6a9f/node_modules/@session-hooks/linux-x64/bin/session-hooks", "", "", "npx's copy in npm's cache"},
		{"go run's binary is refused", "local", "/tmp/go-build123/b001/exe/session-hooks", "", "", "built by go run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OurCommand(CommandOptions{Scope: tt.scope, Executable: exe(tt.exe), LookPath: onPath(tt.onPath), ProjectDirEnv: "CLAUDE_PROJECT_DIR"}, project)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("got %q, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// A binary a package manager links onto PATH from a versioned folder
// (Homebrew: bin/session-hooks → Cellar/session-hooks/1.2.3/bin) is
// written as the link at local and user scope: an upgrade moves the link
// and removes the old folder. A binary reached by no link is written as
// itself.
func TestTheCommandInstalledSurvivesAPackageManagersUpgrade(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	root := t.TempDir()
	cellar := filepath.Join(root, "Cellar", "session-hooks", "1.2.3", "bin", "session-hooks")
	link := filepath.Join(root, "bin", "session-hooks")
	os.MkdirAll(filepath.Dir(cellar), 0o755)
	os.MkdirAll(filepath.Dir(link), 0o755)
	os.WriteFile(cellar, []byte("binary"), 0o755)
	os.Symlink("../Cellar/session-hooks/1.2.3/bin/session-hooks", link)
	other := filepath.Join(root, "other", "session-hooks")
	os.MkdirAll(filepath.Dir(other), 0o755)
	os.WriteFile(other, []byte("another binary"), 0o755)
	onPath := func(string) (string, error) { return link, nil }
	for _, tt := range []struct{ name, scope, exe, want string }{
		{"user scope, the binary the link leads to", "user", cellar, link},
		{"local scope, reached through the link", "local", link, link},
		{"user scope, a binary the link does not lead to", "user", other, other},
		{"project scope, the binary on PATH", "project", cellar, "session-hooks"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			exe := tt.exe
			got, err := OurCommand(CommandOptions{Scope: tt.scope, Executable: func() (string, error) { return exe, nil }, LookPath: onPath}, root)
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// A binary inside the project runs through the directory the client
// names; a client that names none (Copilot CLI) has the install refused
// with what to do, not a command that cannot run.
func TestABinaryInsideTheProjectRunsThroughTheClientsProjectDir(t *testing.T) {
	project := t.TempDir()
	exe := func() (string, error) { return filepath.Join(project, "bin", "session-hooks"), nil }
	none := func(string) (string, error) { return "", errors.New("not found") }
	got, err := OurCommand(CommandOptions{Scope: "project", Executable: exe, LookPath: none, ProjectDirEnv: "GEMINI_PROJECT_DIR"}, project)
	if err != nil || got != `"$GEMINI_PROJECT_DIR"/bin/session-hooks` {
		t.Errorf("got %q, %v", got, err)
	}
	_, err = OurCommand(CommandOptions{Scope: "project", Executable: exe, LookPath: none, Client: "GitHub Copilot CLI"}, project)
	if err == nil || !strings.Contains(err.Error(), "GitHub Copilot CLI names no project directory") {
		t.Errorf("a client with no project directory: %v", err)
	}
}
