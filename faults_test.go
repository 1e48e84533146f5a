//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/internal/testenv"

	"github.com/session-hooks/session-hooks/agent/claude"
	"github.com/session-hooks/session-hooks/logs"
	"github.com/session-hooks/session-hooks/logs/events"
	"golang.org/x/sys/unix"
)

// The fault matrix: everything a user's machine can throw at the hook.
// Every row runs the built binary and must exit 0, print nothing on
// stderr, answer within the event's deadline with a useful output of at
// most 9,500 characters, and leave no torn or partial log. The table in
// docs/reliability.md names each row's test.

var (
	builtOnce sync.Once
	builtBin  string
	builtErr  error
)

// hookBinary builds session-hooks once, into a directory every user can
// read (the permission rows run it as nobody).
func hookBinary(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "session-hooks-bin-")
		if err == nil {
			afterTests = append(afterTests, func() { os.RemoveAll(dir) })
			os.Chmod(dir, 0o755)
			builtBin = filepath.Join(dir, "session-hooks")
			out, err2 := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
			if err2 != nil {
				err = fmt.Errorf("%v\n%s", err2, out)
			}
		}
		builtErr = err
	})
	if builtErr != nil {
		t.Fatalf("building session-hooks: %v", builtErr)
	}
	return builtBin
}

// faultEnv is one row's world: a project directory, what goes on stdin,
// and who runs the hook.
type faultEnv struct {
	t       *testing.T
	root    string // world-readable scratch directory
	project string
	stdin   io.Reader
	payload map[string]any
	// unprivileged runs the hook as nobody, so that permissions apply
	// even when the tests run as root (as CI does).
	unprivileged bool
}

func newFaultEnv(t *testing.T) *faultEnv {
	root, err := os.MkdirTemp("", "faults-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(root, 0o755)
	t.Cleanup(func() {
		if os.RemoveAll(root) != nil { // a row took permissions away
			filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { os.Chmod(p, 0o755); return nil })
			os.RemoveAll(root)
		}
	})
	e := &faultEnv{t: t, root: root, project: filepath.Join(root, "proj")}
	os.MkdirAll(e.project, 0o755)
	e.payload = map[string]any{"session_id": "fault-session", "cwd": e.project}
	return e
}

func (e *faultEnv) gitCmd(args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = e.project
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@e.com", "GIT_COMMITTER_NAME=T",
		"GIT_COMMITTER_EMAIL=t@e.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+e.root)
	return cmd
}

func (e *faultEnv) git(args ...string) {
	e.t.Helper()
	if out, err := e.gitCmd(args...).CombinedOutput(); err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitMayFail runs git where failing is the scenario (a conflicted merge).
func (e *faultEnv) gitMayFail(args ...string) { e.gitCmd(args...).Run() }

// diverged makes main and other change README.md differently, for a
// merge or rebase to conflict on.
func (e *faultEnv) diverged() {
	e.repo()
	e.git("checkout", "-q", "-b", "other")
	e.write("README.md", "theirs\n")
	e.git("commit", "-qam", "theirs")
	e.git("checkout", "-q", "main")
	e.write("README.md", "ours\n")
	e.git("commit", "-qam", "ours")
}

func (e *faultEnv) write(name, content string) string {
	p := filepath.Join(e.project, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// repo makes the project a repository with one commit.
func (e *faultEnv) repo() *faultEnv {
	e.git("init", "-q", "-b", "main")
	e.write("README.md", "hello\n")
	e.git("add", "-A")
	e.git("commit", "-q", "-m", "First commit")
	return e
}

// transcript writes a transcript file and points the payload at it.
func (e *faultEnv) transcript(content []byte) string {
	p := filepath.Join(e.root, "transcript.jsonl")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		e.t.Fatal(err)
	}
	e.payload["transcript_path"] = p
	return p
}

// fifo makes a FIFO at name in the project.
func (e *faultEnv) fifo(name string) {
	p := filepath.Join(e.project, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := mkfifo(p); err != nil {
		e.t.Fatal(err)
	}
}

// link makes name in the project a symbolic link to target.
func (e *faultEnv) link(target, name string) {
	p := filepath.Join(e.project, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.Symlink(target, p); err != nil {
		e.t.Fatal(err)
	}
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

type faultRow struct {
	name  string
	event []string
	setup func(e *faultEnv)
	want  string // a regular expression the output must match
	check func(t *testing.T, e *faultEnv, out string)
}

var textLine = `{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"I am fixing the parser."}]}}`

func faultRows() map[string][]faultRow {
	initEv, pre, end := []string{"init"}, []string{"pre-compact"}, []string{"end"}
	return map[string][]faultRow{
		// Nesting deep enough to overflow a recursive parser's stack, in
		// every JSON file a repository or a payload names.
		"deep JSON": {
			{"payload", initEv, func(e *faultEnv) { e.repo(); e.payload = nil; e.stdin = strings.NewReader(strings.Repeat("[", 8<<20)) },
				`the hook input on stdin nests deeper than 512 levels`, nil},
			{"feature list", initEv, func(e *faultEnv) { e.repo(); e.write("feature_list.json", strings.Repeat("[", 8<<20)) },
				`feature list not read \(nests deeper than 512 levels`, nil},
			{"feature list at stop", []string{"stop"}, func(e *faultEnv) { e.repo(); e.write("feature_list.json", strings.Repeat("[", 8<<20)) },
				`"decision":"block"`, nil},
			{"config", initEv, func(e *faultEnv) { e.repo(); e.write(".claude/session-hooks.json", strings.Repeat(`{"a":`, 100_000)) },
				`session-hooks.json nests deeper than 512 levels`, nil},
			{"transcript line", pre, func(e *faultEnv) {
				e.repo()
				e.transcript([]byte(textLine + "\n" + `{"type":"user","message":{"content":` + strings.Repeat("[", 4<<20) + "}}\n"))
			}, `> I am fixing the parser\.`, nil},
			{"task file", pre, func(e *faultEnv) {
				e.repo()
				tr := filepath.Join(e.root, "config", "projects", "p", "fault-session.jsonl")
				os.MkdirAll(filepath.Dir(tr), 0o755)
				os.WriteFile(tr, []byte(textLine+"\n"), 0o644)
				e.payload["transcript_path"] = tr
				tasks := filepath.Join(e.root, "config", "tasks", "fault-session")
				os.MkdirAll(tasks, 0o755)
				os.WriteFile(filepath.Join(tasks, "1.json"), []byte(strings.Repeat("[", 4<<20)), 0o644)
			}, `> I am fixing the parser\.`, nil},
		},
		// Files a cloned repository names that would block a reader (a
		// FIFO), never end (a link to /dev/zero) or fill memory: one note
		// each, and the hook goes on.
		"hostile files": {
			{"config is a FIFO", initEv, func(e *faultEnv) { e.repo(); e.fifo(".claude/session-hooks.json") },
				`session-hooks.json not read \(.*not a regular file\); using the defaults`, nil},
			{"config links to /dev/zero", initEv, func(e *faultEnv) { e.repo(); e.link("/dev/zero", ".claude/session-hooks.json") },
				`session-hooks.json not read \(.*leads outside the project\)`, nil},
			{"CLAUDE.md links to /dev/zero", end, func(e *faultEnv) { e.repo(); e.link("/dev/zero", "CLAUDE.md") }, `# Session End`, nil},
			{"feature list is a FIFO", initEv, func(e *faultEnv) { e.repo(); e.fifo("feature_list.json") },
				`feature list not read \(.*not a regular file\)`, nil},
			{"feature list is a FIFO at post-tool", []string{"post-tool"}, func(e *faultEnv) {
				e.repo()
				e.write(".claude/session-hooks.json", `{"longRunning":{"enabled":true}}`)
				e.fifo("feature_list.json")
				e.payload["tool_name"] = "Write"
			}, `^$`, nil},
			{"progress file is a FIFO", initEv, func(e *faultEnv) {
				e.repo()
				e.write("feature_list.json", `[{"category":"c","description":"d","passes":false}]`)
				e.fifo("claude-progress.txt")
			}, `## Long-running agent`, nil},
			{"an 8 MB progress file of brackets", initEv, func(e *faultEnv) {
				e.repo()
				e.write("feature_list.json", `[{"category":"c","description":"d","passes":false}]`)
				e.write("claude-progress.txt", strings.Repeat("[", 8<<20))
			}, `## Long-running agent`, nil},
			{".gitignore and .gitattributes are FIFOs", initEv, func(e *faultEnv) { e.repo(); e.fifo(".gitignore"); e.fifo(".gitattributes") },
				"`git status --short`\\*\\* — OK", nil},
			{"transcript is a FIFO", pre, func(e *faultEnv) {
				e.repo()
				p := filepath.Join(e.root, "transcript.jsonl")
				if err := mkfifo(p); err != nil {
					e.t.Fatal(err)
				}
				e.payload["transcript_path"] = p
			}, `Transcript not read: .*not a regular file`, nil},
		},
		"stdin": {
			{"none", initEv, func(e *faultEnv) { e.repo(); e.payload = nil; e.stdin = nil }, `# Session Init`, nil},
			{"empty", initEv, func(e *faultEnv) { e.repo(); e.payload = nil; e.stdin = strings.NewReader("") }, `\*\*4/4 succeeded\*\*`, nil},
			{"not JSON", initEv, func(e *faultEnv) { e.repo(); e.payload = nil; e.stdin = strings.NewReader("{oops") }, `not valid JSON`, nil},
			{"a JSON array", end, func(e *faultEnv) { e.repo(); e.payload = nil; e.stdin = strings.NewReader(`[1,2]`) }, `not a JSON object`, nil},
			{"10 MB", initEv, func(e *faultEnv) { e.repo(); e.payload["padding"] = strings.Repeat("x", 10<<20) }, `\| \*\*Session\*\* \| ` + "`fault-session`", nil},
			{"wrong field types", initEv, func(e *faultEnv) { e.repo(); e.payload["session_id"] = 7; e.payload["source"] = []int{1} }, `ignored session_id in the hook input: expected a string, got a number`, nil},
			{"a TTY", end, func(e *faultEnv) { e.repo(); e.payload = nil; e.stdin = openTTY(e.t) }, `# Session End`, nil},
		},
		"project": {
			{"missing directory", initEv, func(e *faultEnv) { e.payload["cwd"] = filepath.Join(e.root, "gone") }, `cannot use .*/gone: stat .*: no such file or directory`, nil},
			{"a file", initEv, func(e *faultEnv) { e.payload["cwd"] = e.write("plain.txt", "x") }, `plain.txt: not a directory`, nil},
			{"no permission", initEv, func(e *faultEnv) {
				e.repo()
				e.unprivileged = true
				os.Chmod(e.project, 0o700) // root's, so nobody cannot enter
			}, `permission denied`, nil},
			{"not a repository", initEv, func(e *faultEnv) {}, `fatal: not a git repository`, nil},
			{"empty repository", initEv, func(e *faultEnv) { e.git("init", "-q", "-b", "main") }, `main \(no commits yet\)`, nil},
			{"detached HEAD", end, func(e *faultEnv) { e.repo(); e.git("checkout", "-q", "--detach") }, `\(detached HEAD at [0-9a-f]{7}\)`, nil},
			{"corrupt HEAD", initEv, func(e *faultEnv) { e.repo(); e.write(".git/HEAD", "\x00garbage") }, `HEAD is corrupt`, nil},
			{"corrupt index", end, func(e *faultEnv) {
				e.repo()
				e.write(".git/index", "DIRC\x00\x00\x00\x02garbage-garbage-garbage-garbage")
			}, `index file is corrupt`, nil},
			{"missing objects", initEv, func(e *faultEnv) {
				e.repo()
				os.RemoveAll(filepath.Join(e.project, ".git", "objects"))
				os.MkdirAll(filepath.Join(e.project, ".git", "objects"), 0o755)
			}, `FAIL \(exit 128\)`, nil},
			{"shallow clone", initEv, func(e *faultEnv) {
				e.repo()
				e.write("README.md", "second\n")
				e.git("commit", "-qam", "Second commit")
				shallow := filepath.Join(e.root, "shallow")
				e.git("clone", "-q", "--depth", "1", "file://"+e.project, shallow)
				e.payload["cwd"] = shallow
			}, `\(grafted, HEAD -> main`, nil},
			{"linked worktree", end, func(e *faultEnv) {
				e.repo()
				wt := filepath.Join(e.root, "wt")
				e.git("worktree", "add", "-q", "-b", "side", wt)
				e.payload["cwd"] = wt
			}, "(?m)^side$", nil},
			{"submodule", initEv, func(e *faultEnv) {
				sub := filepath.Join(e.root, "lib")
				os.MkdirAll(sub, 0o755)
				(&faultEnv{t: e.t, root: e.root, project: sub}).repo()
				e.repo()
				e.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "lib")
				e.git("commit", "-qm", "Add lib")
			}, `\*\*4/4 succeeded\*\*`, nil},
			{"bare repository", initEv, func(e *faultEnv) {
				e.repo()
				bare := filepath.Join(e.root, "bare.git")
				e.git("clone", "-q", "--bare", e.project, bare)
				e.payload["cwd"] = bare
			}, `fatal: this operation must be run in a work tree`, func(t *testing.T, e *faultEnv, out string) {
				if _, err := os.Stat(filepath.Join(e.root, "bare.git", ".claude")); err == nil {
					t.Error("logs were written into the bare repository")
				}
			}},
			{"index.lock present", end, func(e *faultEnv) { e.repo(); e.write(".git/index.lock", "") }, `\*\*3/3 succeeded\*\*`, func(t *testing.T, e *faultEnv, out string) {
				if _, err := os.Stat(filepath.Join(e.project, ".git", "index.lock")); err != nil {
					t.Error("someone else's index.lock was touched")
				}
			}},
			{"merge in progress", initEv, func(e *faultEnv) { e.diverged(); e.gitMayFail("merge", "-q", "other") }, `(?m)^UU README.md$`, nil},
			{"rebase in progress", initEv, func(e *faultEnv) { e.diverged(); e.gitMayFail("rebase", "-q", "other") }, `\(detached HEAD at [0-9a-f]{7}\)`, nil},
			{"100k untracked files", end, func(e *faultEnv) {
				// On tmpfs where it can be mounted: creating 100k files on
				// this disk took from 5 s to a minute from run to run.
				if unix.Mount("tmpfs", e.project, "tmpfs", 0, "size=256m") == nil {
					e.t.Cleanup(func() { unix.Unmount(e.project, unix.MNT_DETACH) })
				}
				e.repo()
				// touch, a directory at a time: creating files one by one
				// from a single goroutine costs Go a thread hand-off per
				// slow create (10 times touch's time here).
				names := make([]string, 1000)
				for f := range names {
					names[f] = fmt.Sprintf("f%04d", f)
				}
				for d := 0; d < 100; d++ {
					dir := filepath.Join(e.project, "gen", fmt.Sprintf("d%03d", d))
					os.MkdirAll(dir, 0o755)
					touch := exec.Command("touch", names...)
					touch.Dir = dir
					if out, err := touch.CombinedOutput(); err != nil {
						e.t.Fatalf("touch: %v\n%s", err, out)
					}
				}
				e.git("add", "gen/d000")
				e.git("commit", "-qm", "track one directory")
			}, `\?\? gen/d001/`, nil},
			{"a FIFO in the work tree", end, func(e *faultEnv) {
				e.repo()
				syscall.Mkfifo(filepath.Join(e.project, "untracked.fifo"), 0o644)
				os.Remove(filepath.Join(e.project, "README.md"))
				syscall.Mkfifo(filepath.Join(e.project, "README.md"), 0o644) // a tracked file turned FIFO
			}, `(?m)^ M README.md$`, func(t *testing.T, e *faultEnv, out string) {
				if strings.Contains(out, "untracked.fifo") {
					t.Error("a FIFO was listed; git passes over them")
				}
			}},
			{"a symlink loop", initEv, func(e *faultEnv) {
				e.repo()
				os.Symlink("b", filepath.Join(e.project, "a"))
				os.Symlink("a", filepath.Join(e.project, "b"))
				os.Symlink(".", filepath.Join(e.project, "self"))
			}, `(?m)^\?\? self$`, nil},
			{"file names with newlines, spaces, non-UTF-8 and escapes", initEv, func(e *faultEnv) {
				e.repo()
				for _, n := range []string{"new\nline.txt", "with space.txt", "bad\xffbyte.txt", "esc\x1b[31mred.txt"} {
					e.write(n, "x")
				}
			}, `\?\? "esc\\033\[31mred.txt"`, func(t *testing.T, e *faultEnv, out string) {
				for _, want := range []string{`?? "new\nline.txt"`, `?? "with space.txt"`, `?? "bad\377byte.txt"`} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %s", want)
					}
				}
				if strings.Contains(out, "\x1b") || !utf8.ValidString(out) {
					t.Error("a raw escape or invalid byte reached the output")
				}
			}},
		},
		"transcript": {
			{"missing", pre, func(e *faultEnv) { e.repo(); e.payload["transcript_path"] = filepath.Join(e.root, "none.jsonl") }, `Transcript not read: open .*none.jsonl: no such file or directory`, nil},
			{"empty", pre, func(e *faultEnv) { e.repo(); e.transcript(nil) }, `No assistant text found in the transcript`, nil},
			{"truncated last line", pre, func(e *faultEnv) {
				e.repo()
				e.transcript([]byte(textLine + "\n" + `{"type":"assistant","message":{"content":[{"type":"text","text":"half`))
			}, `> I am fixing the parser.`, nil},
			{"non-JSON lines", pre, func(e *faultEnv) { e.repo(); e.transcript([]byte(textLine + "\nnot json\n{{{\n")) }, `> I am fixing the parser.`, nil},
			{"one 50 MB line", pre, func(e *faultEnv) {
				e.repo()
				e.transcript([]byte(textLine + "\n" + `{"type":"user","message":{"content":"` + strings.Repeat("x", 50<<20) + `"}}` + "\n"))
			}, `only the last 32 MiB of the transcript were read`, nil},
			{"binary garbage", pre, func(e *faultEnv) {
				junk := make([]byte, 1<<20)
				for i := range junk {
					junk[i] = byte(i * 131)
				}
				e.repo()
				e.transcript(junk)
			}, `No assistant text found in the transcript`, nil},
			{"1 GB", pre, func(e *faultEnv) {
				e.repo()
				p := e.transcript([]byte(textLine + "\n"))
				if err := os.Truncate(p, 1<<30); err != nil { // sparse: a gigabyte of NULs after the text
					e.t.Fatal(err)
				}
			}, `over 8 MiB were skipped|only the last 32 MiB`, nil},
			{"a directory", pre, func(e *faultEnv) { e.repo(); e.payload["transcript_path"] = e.root }, `is not a regular file`, nil},
			{"a FIFO", pre, func(e *faultEnv) {
				e.repo()
				p := filepath.Join(e.root, "fifo.jsonl")
				syscall.Mkfifo(p, 0o644)
				e.payload["transcript_path"] = p
			}, `fifo.jsonl is not a regular file`, nil},
			{"no permission", pre, func(e *faultEnv) {
				e.repo()
				e.unprivileged = true
				os.Chmod(e.transcript([]byte(textLine+"\n")), 0o600) // root's
			}, `Transcript not read: open .*: permission denied`, nil},
		},
		"logs": {
			{"directory read-only", initEv, func(e *faultEnv) {
				e.repo()
				e.unprivileged = true
				os.MkdirAll(filepath.Join(e.project, ".claude", "logs"), 0o755) // root's
			}, `log not written: (cannot write .*permission denied|.* is open to other users and cannot be made private: operation not permitted)`, nil},
			{"a file where the directory should be", end, func(e *faultEnv) {
				e.repo()
				e.write(".claude/logs", "not a directory")
			}, `is a file where the log directory should be`, nil},
			{"log path is a symlink to elsewhere", initEv, func(e *faultEnv) {
				e.repo()
				os.MkdirAll(filepath.Join(e.project, ".claude", "logs"), 0o700)
				victim := filepath.Join(e.root, "victim.txt")
				os.WriteFile(victim, []byte("keep me"), 0o644)
				os.Symlink(victim, filepath.Join(e.project, ".claude", "logs", logs.InitLog))
			}, `# Session Init`, func(t *testing.T, e *faultEnv, out string) {
				if b, _ := os.ReadFile(filepath.Join(e.root, "victim.txt")); string(b) != "keep me" {
					t.Error("the symlink's target was written")
				}
			}},
			{"disk full", end, diskFull, `log not written: cannot write .*no space left on device`, func(t *testing.T, e *faultEnv, out string) {
				if b, _ := os.ReadFile(filepath.Join(e.project, ".claude", "logs", logs.EndLog)); string(b) != "previous log" {
					t.Errorf("the previous log was damaged: %q", b)
				}
			}},
		},
	}
}

// diskFull puts the project's log directory on a tiny tmpfs, filled up,
// with a previous log in it. Mounting needs root, which CI has.
func diskFull(e *faultEnv) {
	e.repo()
	dir := filepath.Join(e.project, ".claude", "logs")
	os.MkdirAll(dir, 0o700)
	testenv.Need(e.t, "mounting a small tmpfs to fill up (root)", unix.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"))
	e.t.Cleanup(func() { unix.Unmount(dir, 0) })
	os.WriteFile(filepath.Join(dir, logs.EndLog), []byte("previous log"), 0o600)
	fill, _ := os.Create(filepath.Join(dir, "fill"))
	fill.Write(make([]byte, 128<<10)) // fails once the disk is full
	fill.Close()
}

// openTTY opens a pseudo-terminal's follower side, to be the hook's stdin.
func openTTY(t *testing.T) *os.File {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

func TestFaults(t *testing.T) {
	bin := hookBinary(t)
	for _, group := range []string{"deep JSON", "hostile files", "stdin", "project", "transcript", "logs"} {
		for _, row := range faultRows()[group] {
			t.Run(group+"/"+row.name, func(t *testing.T) {
				e := newFaultEnv(t)
				row.setup(e)
				out := runFault(t, bin, e, row.event)
				seen := out
				if row.event[0] == "pre-compact" {
					// Its stdout is the short list the summary must keep;
					// what it found is in the snapshot it saved.
					b, _ := os.ReadFile(filepath.Join(e.project, ".claude", "logs", logs.SnapshotLog))
					seen += "\n" + string(b)
				}
				if !regexp.MustCompile(row.want).MatchString(seen) {
					t.Errorf("output and snapshot do not match %q:\n%s", row.want, clipText(seen, 3000))
				}
				if row.check != nil {
					row.check(t, e, out)
				}
				assertWholeLogs(t, filepath.Join(e.project, ".claude", "logs"))
			})
		}
	}
}

// runFault runs one event and checks the hook contract.
func runFault(t *testing.T, bin string, e *faultEnv, event []string) string {
	t.Helper()
	cmd := exec.Command(bin, event...)
	cmd.Dir = e.project // where the hook runs without a payload's cwd
	// The rows check what each fault makes of the probes' output, which
	// the full output shows; the brief's own rows are in hooks/brief_test.go.
	cmd.Env = append(os.Environ(), "SESSION_HOOKS_OUTPUT=full")
	switch {
	case e.payload != nil:
		b, _ := json.Marshal(e.payload)
		cmd.Stdin = bytes.NewReader(b)
	case e.stdin != nil:
		cmd.Stdin = e.stdin
	}
	if e.unprivileged && os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Dir = e.root // nobody may not be able to enter the project
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	deadline := 10 * time.Second
	if event[0] == "end" {
		deadline = time.Second
	}
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		t.Errorf("exit: %v", err)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
	if took > testenv.Scaled(deadline+time.Second) {
		t.Errorf("took %s, deadline %s", took, deadline)
	}
	out := stdout.String()
	switch n := logs.Len(out); {
	case event[0] == "stop" || event[0] == "post-tool":
		// Silent, or one JSON reply of Claude Code's protocol.
		if n > 0 && !json.Valid([]byte(out)) {
			t.Errorf("%s printed %q, not a JSON reply", event[0], clipText(out, 200))
		}
	case n > claude.Budget || n == 0 || out[0] == '{':
		t.Errorf("output of %d characters starting %q", n, clipText(out, 20))
	}
	return out
}

// assertWholeLogs checks that every log is a complete document and that no
// temporary file was left behind.
func assertWholeLogs(t *testing.T, dir string) {
	t.Helper()
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return // no log directory, or the row put a file there
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&os.ModeSymlink != 0 || d.Name() == "fill" {
			return nil
		}
		b, _ := os.ReadFile(p)
		s := string(b)
		switch {
		case strings.Contains(d.Name(), ".tmp-"):
			t.Errorf("temporary file left behind: %s", p)
		case d.Name() == events.File:
			for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
				if s == "" {
					break // nothing appended (the disk was full): whole
				}
				var e events.Event
				if json.Unmarshal([]byte(line), &e) != nil || e.Subcommand == "" {
					t.Errorf("%s has a torn line: %q", p, clipText(line, 200))
				}
			}
		case strings.HasSuffix(d.Name(), ".json") && json.Valid(b):
		case filepath.Base(filepath.Dir(p)) == "numbers" && s != "" && !strings.ContainsAny(s, "\n\x00"):
			// a session number's claim: the id of the session holding it
		case strings.HasSuffix(d.Name(), ".lock") && s == "":
			// a session state's lock: empty, held by flock
		case d.Name() == ".gitignore" && s == logs.IgnoreAll:
			// the directory keeping itself out of git
		case s == "previous log":
		case strings.HasPrefix(s, "# Session") && strings.Contains(s, "succeeded** in "):
		case strings.HasPrefix(s, "**Branch:**") && strings.Contains(s, "### What was being worked on"):
		case strings.HasPrefix(s, "# Session Stop\n") && strings.Contains(s, "**Decision:** `"):
		default:
			t.Errorf("%s is not a whole log:\n%s", p, clipText(s, 500))
		}
		return nil
	})
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// TestConcurrentRunsLeaveWholeLogs runs every event 20 times at once in one
// project: each log must be one whole document from a single run, and each
// session's snapshot must be its own.
func TestConcurrentRunsLeaveWholeLogs(t *testing.T) {
	bin := hookBinary(t)
	e := newFaultEnv(t).repo()
	e.write("dirty.txt", "x")
	transcript := e.transcript([]byte(textLine + "\n"))
	subcommands := [][]string{{"init"}, {"init", "--compact-recovery"}, {"pre-compact"}, {"end"}}
	var wg sync.WaitGroup
	errs := make(chan string, 20*len(subcommands))
	for i := 0; i < 20; i++ {
		for _, ev := range subcommands {
			wg.Add(1)
			go func() {
				defer wg.Done()
				payload, _ := json.Marshal(map[string]any{"session_id": fmt.Sprintf("s%02d", i), "cwd": e.project,
					"transcript_path": transcript, "trigger": "auto"})
				cmd := exec.Command(bin, append(ev, "--timeout", "30s")...)
				cmd.Stdin = bytes.NewReader(payload)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				// A startup with nothing to say (no upstream, no operation)
				// prints nothing; the others always print.
				mayBeEmpty := len(ev) == 1 && ev[0] == "init"
				if err != nil || stderr.Len() > 0 || len(out) == 0 && !mayBeEmpty {
					errs <- fmt.Sprintf("%v %s: %v %q", ev, payload, err, stderr.String())
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	dir := filepath.Join(e.project, ".claude", "logs")
	for _, name := range []string{logs.InitLog, logs.EndLog, logs.SnapshotLog} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "# Session"); name != logs.SnapshotLog && n != 1 {
			t.Errorf("%s holds %d documents", name, n)
		}
		if n := strings.Count(string(b), "**Branch:**"); name == logs.SnapshotLog && n != 1 {
			t.Errorf("%s holds %d snapshots", name, n)
		}
	}
	for i := 0; i < 20; i++ {
		id := fmt.Sprintf("s%02d", i)
		b, err := os.ReadFile(filepath.Join(dir, "sessions", id, logs.SnapshotLog))
		if err != nil {
			t.Fatal(err)
		}
		if info := logs.ReadSnapshotInfo(b); info.Session != id {
			t.Errorf("session %s's snapshot names session %q", id, info.Session)
		}
	}
	assertWholeLogs(t, dir)
	all, err := events.Read(logs.DirFor(e.project))
	if err != nil || len(all) != 20*len(subcommands) {
		t.Errorf("%d events recorded for %d runs (%v)", len(all), 20*len(subcommands), err)
	}
}
