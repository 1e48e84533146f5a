package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/internal/atomicfile"
	"github.com/session-hooks/session-hooks/internal/safefile"
)

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
	if real, ok := (Fence{Root: project}).Allows(path); !ok {
		return false, fmt.Errorf("%s leads to %s, outside the project; not writing there", path, real)
	}
	b, err := safefile.Read(path, hookfile.MaxSettings)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if coversLogs(b) != "" {
		return false, nil
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	target, err := WriteTarget(path)
	if err != nil {
		return false, err
	}
	return true, atomicfile.Write(target, append(b, ".claude/logs/\n"...), atomicfile.Options{Perm: 0o644})
}

// coversLogs is the line of a .gitignore that keeps .claude/logs out of
// git, or "".
func coversLogs(gitignore []byte) string {
	for _, line := range strings.Split(string(gitignore), "\n") {
		switch l := strings.TrimSpace(line); l {
		case ".claude/logs/", ".claude/logs", "/.claude/logs/", "/.claude/logs", ".claude/", ".claude", "/.claude/":
			return l
		}
	}
	return ""
}

// LeftBehind says what uninstall leaves in the project of dir: the logs
// (the sessions' history and handoffs, the user's to keep or delete) and
// the .gitignore line that keeps them out of git, which install may have
// added and which cannot be told from one the user wrote. Uninstall
// removes only our settings entries; a person must not have to find the
// rest.
func LeftBehind(dir string, out io.Writer) {
	project, _ := hookfile.ProjectRoot(dir)
	var left []string
	if fi, err := safefile.StatIn(project, ".claude/logs"); err == nil && fi.IsDir() {
		left = append(left, fmt.Sprintf("the logs in %s (the sessions' history and handoffs)", filepath.Join(project, ".claude", "logs")))
	}
	if b, err := safefile.ReadIn(project, ".gitignore", hookfile.MaxSettings); err == nil {
		if line := coversLogs(b); line != "" {
			left = append(left, fmt.Sprintf("the line %q in %s", line, filepath.Join(project, ".gitignore")))
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(out, "Left in place: %s. Delete them if you no longer want them.\n", strings.Join(left, "; "))
	}
}
