package logs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/session-hooks/session-hooks/internal/atomicfile"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/internal/seal"
)

// Names of the log files, as the Node script wrote them.
const (
	InitLog       = "session-init.md"
	EndLog        = "session-end.md"
	SnapshotLog   = "pre-compact-state.md"
	sessionsDir   = "sessions"
	maxNameLength = 128
)

// Dir is a project's .claude/logs directory.
type Dir struct {
	Project, Path string
	// NoCreate, when set, is asked before a directory is made, and says
	// why it must not be ("" when it may): a hook run in / or /dev,
	// outside any git work tree and any project Claude Code named, has no
	// project to leave logs in. One that exists is written to.
	NoCreate func() string
}

// DirFor returns the log directory of a project, without touching the disk.
func DirFor(project string) Dir {
	return Dir{Project: project, Path: filepath.Join(project, ".claude", "logs")}
}

// Ensure creates the log directory, or the subdirectories of it named,
// if needed, with the checks of Write.
func (d Dir) Ensure(sub ...string) error {
	return d.ensureDirs(filepath.Join(append([]string{d.Path}, sub...)...))
}

// SessionFile is the path, below the log directory, of a file kept per
// session, with the session id made safe as a directory name.
func SessionFile(sessionID, name string) string {
	return filepath.Join(sessionsDir, SafeName(sessionID), name)
}

// SafeName makes an id (from the hook's input, so untrusted) usable as one
// path component: only letters, digits, '.', '_' and '-', not "." or "..",
// at most 128 bytes. An id that had to change gets a hash of the original
// appended, so two different ids never share a directory.
func SafeName(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	safe := b.String()
	if safe == id && id != "" && id != "." && id != ".." && len(id) <= maxNameLength {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	safe = strings.Trim(safe, ".")
	if len(safe) > maxNameLength-17 {
		safe = safe[:maxNameLength-17]
	}
	return safe + "-" + hex.EncodeToString(sum[:8])
}

// Write replaces the file name (relative to d, maybe in a subdirectory)
// with content atomically: a reader or a parallel hook sees the old file or
// the new one, never a torn one, and a failed write (a full disk) leaves the
// old file as it was. It creates missing directories (0700) but refuses to
// write through a symbolic link or inside a .git directory.
//
// It does not wait for the disk. These logs are rewritten at every session
// boundary, and an fsync was half the run time of a hook on a small
// repository (0.5 to 1 ms, and up to a second on a disk busy with
// writeback); a crash in the seconds after a write may lose that one write.
func (d Dir) Write(name string, content []byte) error {
	return d.write(name, Safe(name, content), false)
}

// WriteDurable is Write for a file whose loss would cost the user work
// (the pre-compaction snapshot): the content is flushed to disk before the
// rename, waiting at most atomicfile.SyncBudget.
func (d Dir) WriteDurable(name string, content []byte) error {
	return d.write(name, Safe(name, content), true)
}

// WriteSealed is Write (WriteDurable when durable) for a file a later run
// reads back with Read: sealed with this user's key, so that Read can tell
// it from a file the repository brought (package seal). Without a usable
// key the file is written unsealed, for people, and the error says why a
// later run will not read it.
func (d Dir) WriteSealed(name string, content []byte, durable bool) error {
	content = Safe(name, content)
	sealed, serr := d.sealAs(name, content)
	if serr != nil {
		sealed = content
	}
	if err := d.write(name, sealed, durable); err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("%s written unsealed (a later run will not read it back): %w", name, serr)
	}
	return nil
}

func (d Dir) sealAs(name string, content []byte) ([]byte, error) {
	if isJSON(name) {
		return seal.JSON(d.SealName(name), content)
	}
	return seal.Text(d.SealName(name), content)
}

// SealName is what a seal binds a log file to: the project, as the file
// system names it after links, and the file's name below the log
// directory. A sealed file copied from another project, or moved to
// another session's folder, is then no longer sealed.
func (d Dir) SealName(name string) string {
	return canonical(d.Project) + "\x00" + filepath.ToSlash(name)
}

// canonicalPaths caches the projects' real paths: a run asks for the one
// project's many times.
var canonicalPaths sync.Map

func canonical(project string) string {
	if p, ok := canonicalPaths.Load(project); ok {
		return p.(string)
	}
	p, err := filepath.EvalSymlinks(project)
	if err != nil {
		p = filepath.Clean(project)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	canonicalPaths.Store(project, p)
	return p
}

func isJSON(name string) bool {
	return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")
}

// write writes content, which Safe has cleaned, atomically.
func (d Dir) write(name string, content []byte, durable bool) error {
	target := filepath.Join(d.Path, name)
	if err := d.ensureDirs(filepath.Dir(target)); err != nil {
		return err
	}
	if err := atomicfile.Write(target, content, atomicfile.Options{Perm: 0o600, Durable: durable}); err != nil {
		return fmt.Errorf("cannot write %s: %w", target, unwrapPath(err))
	}
	return nil
}

// Safe is what every log write goes through: the content cleaned by the
// one sanitising and redaction policy, string by string for JSON (.json,
// .jsonl) so that it stays JSON, as text otherwise. Logs are read back by
// people, CI scripts and later runs: nothing raw from outside reaches them.
func Safe(name string, content []byte) []byte {
	if isJSON(name) {
		return sanitize.JSON(content)
	}
	return []byte(sanitize.Clean(string(content)))
}

// Create writes a new file (relative to d) that must not exist yet, with
// the checks of Write; an existing one gives an error matching
// fs.ErrExist. It is how parallel hooks agree on who takes something.
func (d Dir) Create(name string, content []byte) error {
	target := filepath.Join(d.Path, name)
	if err := d.ensureDirs(filepath.Dir(target)); err != nil {
		return err
	}
	content = Safe(name, content)
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(target)
		return fmt.Errorf("cannot write %s: %w", target, unwrapPath(err))
	}
	return nil
}

// Read returns what a run wrote with WriteSealed, without its seal. A file
// that does not prove it was written by this user's session-hooks (one
// the repository committed, or written by hand or by another user) is
// refused with an error matching seal.ErrNotSealed; so are links and
// anything that is not a regular file. It reads at most max bytes.
func (d Dir) Read(name string, max int64) ([]byte, fs.FileInfo, error) {
	b, fi, err := d.readRaw(name, max)
	if err != nil {
		return nil, fi, err
	}
	if fi.Size() > max {
		// Cut, it could not prove its seal: say what is wrong instead.
		return nil, fi, fmt.Errorf("%s is %d bytes, over the %d read back; not read", filepath.Join(d.Path, name), fi.Size(), max)
	}
	if isJSON(name) {
		b, err = seal.OpenJSON(d.SealName(name), b)
	} else {
		b, err = seal.OpenText(d.SealName(name), b)
	}
	if err != nil {
		return nil, fi, fmt.Errorf("%s: %w", filepath.Join(d.Path, name), err)
	}
	return b, fi, nil
}

// ReadUnsealed is Read for a file no seal covers (a claim made with
// Create): its content may be compared, never shown or trusted.
func (d Dir) ReadUnsealed(name string, max int64) ([]byte, fs.FileInfo, error) {
	return d.readRaw(name, max)
}

// readRaw reads a log file as it is on disk, reached through no link.
func (d Dir) readRaw(name string, max int64) ([]byte, fs.FileInfo, error) {
	p := filepath.Join(d.Path, name)
	if err := d.realDirs(filepath.Dir(p)); err != nil {
		return nil, nil, err
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, fmt.Errorf("%s is not a regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fi, err
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		return nil, fi, fmt.Errorf("%s changed while opened", p) // swapped for a link meanwhile
	}
	b := make([]byte, min(fi.Size(), max))
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fi, err
	}
	return b[:n], fi, nil
}

// ReadDir lists a directory below the log directory (sub, "" for the log
// directory itself), reached through no link.
func (d Dir) ReadDir(sub string) ([]os.DirEntry, error) {
	p := filepath.Join(d.Path, sub)
	if err := d.realDirs(p); err != nil {
		return nil, err
	}
	return os.ReadDir(p)
}

// Exists returns a test of whether a name is in the directory sub below
// the log directory, that directory reached through no link (checked
// once, here): for many names asked in a row, without listing the
// directory.
func (d Dir) Exists(sub string) (func(name string) bool, error) {
	p := filepath.Join(d.Path, sub)
	if err := d.realDirs(p); err != nil {
		return nil, err
	}
	return func(name string) bool {
		_, err := os.Lstat(filepath.Join(p, name))
		return err == nil
	}, nil
}

// Check says whether the log directory can be read: every directory from
// the project down to it a real one, not a link.
func (d Dir) Check() error { return d.realDirs(d.Path) }

// realDirs checks that every directory from the project down to dir is a
// real directory, not a link: a .claude/logs (or .claude, or
// sessions/<id>) a repository committed as a link would otherwise make a
// hook read another project's logs as this one's.
func (d Dir) realDirs(dir string) error {
	rel, err := filepath.Rel(d.Project, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("log directory %s is outside %s", dir, d.Project)
	}
	p := d.Project
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is a link or not a directory: no log is read through it", p)
		}
	}
	return nil
}

// ensureDirs creates the directories from the project (which must exist)
// down to dir, checking that each one is a real directory. The log
// directory and those below it are made private (0700) when found
// otherwise: they hold what the user's sessions said.
func (d Dir) ensureDirs(dir string) error {
	base := d.Project
	rel, err := filepath.Rel(base, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("log directory %s is outside %s", dir, base)
	}
	for _, part := range strings.Split(filepath.Clean(base), string(filepath.Separator)) {
		if part == ".git" {
			return fmt.Errorf("not writing logs inside a .git directory (%s)", base)
		}
	}
	if g := enclosingGitDir(base); g != "" {
		return fmt.Errorf("not writing logs inside a git directory (%s is a bare repository or a .git directory)", g)
	}
	p := base
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if d.NoCreate != nil {
				if why := d.NoCreate(); why != "" {
					return fmt.Errorf("not creating %s: %s", p, why)
				}
			}
			if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("cannot create %s: %w", p, unwrapPath(err))
			}
			if p == d.Path {
				keepOutOfGit(p)
			}
		case err != nil:
			return fmt.Errorf("cannot use %s: %w", p, unwrapPath(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; not writing logs through it", p)
		case !fi.IsDir():
			return fmt.Errorf("%s is a file where the log directory should be", p)
		case fi.Mode().Perm()&0o077 != 0 && isWithin(p, d.Path):
			if err := os.Chmod(p, 0o700); err != nil {
				return fmt.Errorf("%s is open to other users and cannot be made private: %w", p, unwrapPath(err))
			}
		case p == d.Path:
			keepOutOfGit(p)
		}
	}
	return nil
}

// IgnoreAll is the log directory's own .gitignore.
const IgnoreAll = "# session-hooks' logs: never the repository's work.\n*\n"

// keptOutOfGit are the log directories this process made sure of.
var keptOutOfGit sync.Map

// keepOutOfGit gives the log directory a .gitignore of its own that
// ignores everything in it, itself included, as tool caches do: wherever
// a client starts a session, and whatever the repository's .gitignore
// says, git status never shows the logs as the user's work, and `git add
// -A` never commits them. An existing file (the user's, or a link) is
// left as it is; a failure only costs the ignoring.
func keepOutOfGit(dir string) {
	if _, done := keptOutOfGit.LoadOrStore(dir, true); done {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) // O_EXCL: never through a link
	if err != nil {
		return
	}
	_, err = f.WriteString(IgnoreAll)
	if cerr := f.Close(); err != nil || cerr != nil {
		os.Remove(f.Name()) // a torn one would ignore nothing, and stay
		keptOutOfGit.Delete(dir)
	}
}

// isWithin says whether p is dir or below it.
func isWithin(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// unwrapPath drops the path from an *fs.PathError, which the callers name
// already, keeping messages to one short line.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// enclosingGitDir returns dir or the nearest parent of it that is a git
// directory, or "": a subdirectory of a bare repository (hooks/, info/, or
// one made by hand) is as much git's as the repository itself.
func enclosingGitDir(dir string) string {
	dir = filepath.Clean(dir)
	if g, ok := gitDirAbove.Load(dir); ok {
		return g.(string)
	}
	g := findGitDir(dir)
	gitDirAbove.Store(dir, g)
	return g
}

// gitDirAbove keeps enclosingGitDir's answers for the process: a run
// writes three to five files into one project, and each asked again, a
// stat per directory up to the root.
var gitDirAbove sync.Map

func findGitDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if looksLikeGitDir(d) {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// looksLikeGitDir: HEAD, objects/ and refs/ side by side mark a git
// directory, whatever its name (a bare repository, say).
func looksLikeGitDir(dir string) bool {
	for _, p := range []string{"HEAD", "objects", "refs"} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || (p == "HEAD") == fi.IsDir() {
			return false
		}
	}
	return true
}
