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
	for _, line := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(line) {
		case ".claude/logs/", ".claude/logs", "/.claude/logs/", "/.claude/logs", ".claude/", ".claude", "/.claude/":
			return false, nil
		}
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
