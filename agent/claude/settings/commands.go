package settings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/jsonedit"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/internal/atomicfile"
	"github.com/session-hooks/session-hooks/internal/safefile"
)

// These commands are run by a person, not by Claude Code: they fail, with
// a message saying what to do, and the caller exits non-zero.

// Env is what the commands take from the process: the directory they run
// in, the environment and the home directory, so tests can set each.
type Env struct {
	Dir    string
	Getenv func(string) string
	Home   func() (string, error)
	Out    io.Writer
}

func (e Env) settingsPath(scope string) (string, error) {
	path, err := claude.SettingsPath(scope, e.Dir, e.Getenv, e.Home)
	if err != nil {
		return "", hookfile.UsageError{Msg: err.Error()}
	}
	return path, nil
}

// InstallOptions are install's flags.
type InstallOptions struct {
	Scope   string
	Command string // what the hooks run; "" for this binary
	// LongRunning wires the long-running checks (true), removes them
	// (false), or keeps what is wired (nil). Flags does the same for each
	// install flag of the event table (post-compact…): absent keeps.
	LongRunning *bool
	Flags       map[string]bool
	NoGitignore bool
	DryRun      bool // print the change as a diff; write nothing
	// Exec writes the exec form (true), the shell form (false), or the
	// exec form when the claude on PATH runs it (nil), as ClaudeVersion
	// (default: claude --version) tells.
	Exec          *bool
	ClaudeVersion func() (string, error)
	Executable    func() (string, error)
	LookPath      func(string) (string, error)
	// FollowSymlinks writes through a settings file's links even when
	// they lead outside the scope's own directory.
	FollowSymlinks bool
	// RewriteStrict rewrites a settings file Claude Code refuses (it has
	// comments or trailing commas) as strict JSON before adding to it.
	RewriteStrict bool
}

// RunInstall wires session-hooks into the scope's settings file.
func RunInstall(env Env, opt InstallOptions) error {
	project, moved := hookfile.ProjectRoot(env.Dir)
	if moved && opt.Scope != "user" {
		fmt.Fprintf(env.Out, "Installing at the top of the repository, %s (you are in a subdirectory).\n", project)
	}
	env.Dir = project
	path, err := env.settingsPath(opt.Scope)
	if err != nil {
		return err
	}
	cmd, err := OurCommand(opt, project)
	if err != nil {
		return err
	}
	old, existed, err := hookfile.Read(path)
	if err != nil {
		return err
	}
	fence := env.fenceFor(opt.Scope, opt.FollowSymlinks)
	longRunning, flags := hookfile.Keep(old, opt.Command)
	if opt.LongRunning != nil {
		longRunning = *opt.LongRunning
	}
	for f, on := range opt.Flags {
		flags = slices.DeleteFunc(flags, func(x string) bool { return x == f })
		if on {
			flags = append(flags, f)
		}
	}
	want := hookfile.Desired(cmd, longRunning, flags...)
	if useExec(opt) {
		want = hookfile.ExecForm(want)
	}
	base := old
	// A file that is not even JSON with comments is Install's to refuse.
	if _, perr := hookfile.Parse(old); perr == nil && NotLoaded(old) != "" {
		why := NotLoaded(old)
		if !opt.RewriteStrict {
			return fmt.Errorf("%s is not loaded by Claude Code (%s). Entries added to it would never run: "+
				"fix it by hand, or pass --rewrite-strict to rewrite it as strict JSON (comments and trailing commas are dropped; --dry-run shows the change). The file is left untouched.", path, why)
		}
		if base, err = Strict(old); err != nil {
			return fmt.Errorf("cannot rewrite %s as strict JSON: %v. The file is left untouched.", path, err)
		}
	}
	res, err := hookfile.Install(base, want, opt.Command)
	if err != nil {
		return fmt.Errorf("cannot install into %s: %v. The file is left untouched.", path, err)
	}
	if !bytes.Equal(base, old) {
		res.Changed = true
		res.Changes = append([]string{"~ rewritten as strict JSON (comments and trailing commas dropped)"}, res.Changes...)
	}
	out := env.Out
	switch {
	case !res.Changed:
		fmt.Fprintf(out, "session-hooks is already installed in %s; nothing changed.\n", path)
	case opt.DryRun:
		fmt.Fprintf(out, "Would change %s (nothing written):\n%s", path, jsonedit.UnifiedDiff(path, old, res.JSON))
		return nil
	default:
		backup, err := saveSettings(path, fence, old, existed, res.JSON)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Installed session-hooks (%s) into %s.\n", cmd, path)
		for _, c := range res.Changes {
			fmt.Fprintln(out, "  "+c)
		}
		if backup != "" {
			fmt.Fprintf(out, "The previous version is kept as %s.\n", backup)
		}
		if res.Migrated > 0 {
			fmt.Fprintf(out, "Replaced %d entr%s of the Node script (session-hooks.mjs).\n", res.Migrated, plural(res.Migrated, "y", "ies"))
		}
	}
	if opt.Scope != "user" && !opt.NoGitignore && !opt.DryRun {
		IgnoreLogs(project, out)
	}
	return nil
}

// useExec decides the exec form: as told, else when the claude on PATH
// is a version known to run it.
func useExec(opt InstallOptions) bool {
	if opt.Exec != nil {
		return *opt.Exec
	}
	version := opt.ClaudeVersion
	if version == nil {
		version = claudeVersion
	}
	out, err := version()
	return err == nil && claude.RunsExecForm(out)
}

// claudeVersion asks the claude on PATH its version.
func claudeVersion() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "claude", "--version").Output()
	return string(out), err
}

// UninstallOptions are uninstall's flags.
type UninstallOptions struct {
	Scope          string
	Command        string
	FollowSymlinks bool // as InstallOptions'
}

// RunUninstall removes our entries from the scope's settings file, and
// nothing else.
func RunUninstall(env Env, opt UninstallOptions) error {
	// From a subdirectory, the settings install wrote: at the top.
	env.Dir, _ = hookfile.ProjectRoot(env.Dir)
	path, err := env.settingsPath(opt.Scope)
	if err != nil {
		return err
	}
	old, existed, err := hookfile.Read(path)
	if err != nil {
		return err
	}
	if !existed {
		fmt.Fprintf(env.Out, "%s does not exist; nothing to uninstall.\n", path)
		return nil
	}
	res, err := hookfile.Uninstall(old, opt.Command)
	if err != nil {
		return fmt.Errorf("cannot uninstall from %s: %v. The file is left untouched.", path, err)
	}
	if !res.Changed {
		fmt.Fprintf(env.Out, "No session-hooks entries in %s; nothing changed.\n", path)
		return nil
	}
	fence := env.fenceFor(opt.Scope, opt.FollowSymlinks)
	if target, err := writeTarget(path); err == nil && backup.HoldsNothing(res.JSON) && backup.CreatedByInstall(target) {
		// install made this file, and it now holds nothing: it goes.
		if real, ok := fence.allows(path); !ok {
			return fmt.Errorf("%s leads to %s, outside %s; not removing it through the link (pass --follow-symlinks)", path, real, fence.root)
		}
		if err := os.Remove(target); err != nil {
			return fmt.Errorf("cannot remove %s: %v", target, err)
		}
		backup.UnmarkCreated(target)
		fmt.Fprintf(env.Out, "Removed %d session-hooks entr%s, and %s, which install had created and which now held nothing.\n",
			res.Removed, plural(res.Removed, "y", "ies"), path)
		return nil
	}
	backup, err := saveSettings(path, fence, old, existed, res.JSON)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "Removed %d session-hooks entr%s from %s (the previous version is kept as %s).\n",
		res.Removed, plural(res.Removed, "y", "ies"), path, backup)
	return nil
}

// OurCommand is what the hooks run: --command, else this binary. The
// project's settings are shared through the repository, so there it must
// be a command that works on a teammate's machine too: "session-hooks"
// when that is this binary on PATH (or the npm package's command running
// it: each hook then starts Node.js too), or a path from $CLAUDE_PROJECT_DIR
// when the binary is inside the project. A binary go run built in Go's
// temporary cache is refused: Go deletes it when the run ends.
func OurCommand(opt InstallOptions, project string) (string, error) {
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
		return `"$CLAUDE_PROJECT_DIR"/` + hookfile.ShellQuote(filepath.ToSlash(rel)), nil
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

// fence is the directory a settings write stays in unless the person
// said otherwise: the project for project and local scope, Claude Code's
// configuration directory for user scope.
type fence struct {
	root   string
	follow bool // --follow-symlinks: anywhere a link leads
}

func (e Env) fenceFor(scope string, follow bool) fence {
	if scope == "user" {
		dir, _ := claude.ConfigDir(e.Getenv, e.Home)
		return fence{root: dir, follow: follow}
	}
	root, _ := hookfile.ProjectRoot(e.Dir)
	return fence{root: root, follow: follow}
}

// allows says whether the file path really is (its links and those of
// its directories followed) stays inside the fence.
func (f fence) allows(path string) (string, bool) {
	real := realPath(path)
	if f.follow || f.root == "" {
		return real, true
	}
	root := realPath(f.root)
	return real, real == root || strings.HasPrefix(real, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// realPath is path with every link resolved, as far as it exists.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir, base := filepath.Split(abs)
	if dir = filepath.Clean(dir); dir == abs {
		return abs
	}
	return filepath.Join(realPath(dir), base)
}

// saveSettings keeps the old file as a backup outside the repository
// (package backup) and returns where, then replaces it atomically, keeping its
// permissions. A settings file that is a symbolic link (kept
// in a dotfiles repository) is written through when its target stays in
// the scope's directory (the fence), or with --follow-symlinks: a cloned
// repository's committed link must not make install write into any JSON
// file the user can write.
func saveSettings(path string, f fence, old []byte, existed bool, js []byte) (kept string, err error) {
	if real, ok := f.allows(path); !ok {
		return "", fmt.Errorf("%s leads to %s, outside %s; not writing through the link (pass --follow-symlinks to write there)", path, real, f.root)
	}
	target, err := writeTarget(path)
	if err != nil {
		return "", err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", err
	}
	if existed {
		if kept, err = backup.Keep(target, old, mode); err != nil {
			return "", fmt.Errorf("cannot keep a backup (%v); nothing changed", err)
		}
	} else {
		backup.MarkCreated(target)
	}
	if err := atomicfile.Write(target, js, atomicfile.Options{Perm: mode, Durable: true}); err != nil {
		return "", fmt.Errorf("cannot write %s: %v", target, err)
	}
	return kept, nil
}

// writeTarget is the file a write of path replaces: path, or the file its
// symbolic links lead to. A read-only file is refused rather than
// replaced (a rename would succeed over it), as is anything but a file.
func writeTarget(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	} else if err != nil {
		return "", err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", fmt.Errorf("%s is a symbolic link to a missing file; create its target or remove the link", path)
		}
		if fi, err = os.Stat(target); err != nil {
			return "", err
		}
	}
	switch {
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file; not replacing it", target)
	case fi.Mode().Perm()&0o222 == 0:
		return "", fmt.Errorf("%s is read-only; make it writable (chmod u+w) to change it", target)
	}
	return target, nil
}

// IgnoreLogs adds .claude/logs/ to the .gitignore of the git work tree
// holding dir, and says so on out: every agent's hooks log there, and a
// log left out of it shows in git status as the user's work. Outside a
// work tree it does nothing.
func IgnoreLogs(dir string, out io.Writer) {
	project, _ := hookfile.ProjectRoot(dir)
	if _, err := os.Stat(filepath.Join(project, ".git")); err != nil {
		return
	}
	if added, err := ignoreLogs(project); err != nil {
		fmt.Fprintf(out, "Could not add .claude/logs/ to .gitignore: %v\n", err)
	} else if added {
		fmt.Fprintln(out, "Added .claude/logs/ to .gitignore.")
	}
}

// ignoreLogs adds .claude/logs/ to the project's .gitignore unless an
// entry already covers it.
//
// A .gitignore that is a symbolic link is refused, as git (since 2.32)
// refuses to read one: a committed link could make the append land in
// ~/.gitconfig or any file the user can write.
func ignoreLogs(project string) (bool, error) {
	path := filepath.Join(project, ".gitignore")
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return false, fmt.Errorf("%s is a symbolic link, which git does not read; not writing through it (add .claude/logs/ to the file it should be)", path)
	}
	if real, ok := (fence{root: project}).allows(path); !ok {
		return false, fmt.Errorf("%s leads to %s, outside the project; not writing there", path, real)
	}
	b, err := safefile.Read(path, hookfile.MaxSettings)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(line) {
		case ".claude/logs/", ".claude/logs", "/.claude/logs/", "/.claude/logs", ".claude/", ".claude", "/.claude/":
			return false, nil
		}
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	target, err := writeTarget(path)
	if err != nil {
		return false, err
	}
	return true, atomicfile.Write(target, append(b, ".claude/logs/\n"...), atomicfile.Options{Perm: 0o644})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
