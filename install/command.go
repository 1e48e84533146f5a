package install

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// CommandOptions are what the command of the hooks is chosen from: the
// scope written (project settings are shared with teammates), --command,
// and where this binary and PATH's session-hooks are.
type CommandOptions struct {
	Scope, Command string
	// ProjectDirEnv is the variable the client sets to its project's
	// directory: a binary inside the project is run through it ("" when
	// the client sets none, and such a binary is refused).
	ProjectDirEnv, Client string
	Executable            func() (string, error)
	LookPath              func(string) (string, error) // exec.LookPath when nil
}

// OurCommand is what the hooks run: --command, else this binary. The
// project's settings are shared through the repository, so there it must
// be a command that works on a teammate's machine too: "session-hooks"
// when that is this binary on PATH (or the npm package's command running
// it: each hook then starts Node.js too), or a path from $CLAUDE_PROJECT_DIR
// when the binary is inside the project. A binary go run built in Go's
// temporary cache is refused: Go deletes it when the run ends.
func OurCommand(opt CommandOptions, project string) (string, error) {
	if opt.Command != "" {
		return opt.Command, nil
	}
	exe, err := opt.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot tell where this binary is (%v); pass --command", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if inBuildCache(exe) {
		return "", fmt.Errorf("this binary (%s) was built by go run in a temporary directory Go deletes when it exits; "+
			"install it first (go install github.com/session-hooks/session-hooks@latest, or go build) and run that", exe)
	}
	if inNpxCache(exe) {
		return "", fmt.Errorf("this binary (%s) is npx's copy in npm's cache, which npm may clear at any time; "+
			"install it (npm i -g session-hooks) and run session-hooks install", exe)
	}
	lookPath := opt.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	link, onPath := "", ""
	if p, err := lookPath("session-hooks"); err == nil {
		link, onPath = p, p
		if real, err := filepath.EvalSymlinks(p); err == nil {
			onPath = real
		}
	}
	if opt.Scope != "project" {
		// A package manager's link (Homebrew's bin/session-hooks into its
		// versioned Cellar) survives an upgrade; the path it leads to does not.
		if onPath == exe && link != exe && filepath.IsAbs(link) {
			return hookfile.ShellQuote(link), nil
		}
		return hookfile.ShellQuote(exe), nil
	}
	if onPath != "" && (onPath == exe || npmRuns(onPath, exe)) {
		return "session-hooks", nil
	}
	if rel, err := filepath.Rel(project, exe); err == nil && !strings.HasPrefix(rel, "..") {
		if opt.ProjectDirEnv == "" {
			return "", hookfile.UsageError{Msg: opt.Client + " names no project directory to run a binary inside the project by: put session-hooks on PATH, or give --command"}
		}
		return `"$` + opt.ProjectDirEnv + `"/` + hookfile.ShellQuote(filepath.ToSlash(rel)), nil
	}
	return "", fmt.Errorf("the project's settings are shared, and %s is neither on PATH nor inside the project: "+
		"put session-hooks on PATH, pass --command, or install with --scope local", exe)
}

// npmRuns says whether command is the session-hooks command of an npm
// install (npm/session-hooks.js, which PATH's session-hooks links to) that
// runs exe: the binary of its platform's package, which npm puts in the
// package's own node_modules (a global install) or beside it (a project's).
func npmRuns(command, exe string) bool {
	if filepath.Base(command) != "session-hooks.js" || filepath.Base(filepath.Dir(exe)) != "bin" {
		return false
	}
	pkg := filepath.Dir(filepath.Dir(command)) // …/node_modules/session-hooks
	if filepath.Base(pkg) != "session-hooks" {
		return false
	}
	scope := filepath.Dir(filepath.Dir(filepath.Dir(exe))) // …/@session-hooks
	return scope == filepath.Join(pkg, "node_modules", "@session-hooks") || scope == filepath.Join(filepath.Dir(pkg), "@session-hooks")
}

// inNpxCache says whether exe is a binary npx installed into npm's cache
// (…/_npx/<hash>/node_modules/…) to run once.
func inNpxCache(exe string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(exe), "/"), "_npx")
}

// inBuildCache says whether exe is one go run built: in a go-build
// directory under the temporary directory or Go's build cache.
func inBuildCache(exe string) bool {
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}
