package logs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/session-hooks/session-hooks/internal/atomicfile"
	"github.com/session-hooks/session-hooks/internal/seal"
	"github.com/session-hooks/session-hooks/internal/testenv"
)

func TestWriteCreatesPrivateDirectoriesAndFiles(t *testing.T) {
	for name, write := range map[string]func(Dir, string, []byte) error{"Write": Dir.Write, "WriteDurable": Dir.WriteDurable} {
		t.Run(name, func(t *testing.T) {
			d := DirFor(t.TempDir())
			if err := write(d, SessionFile("s1", SnapshotLog), []byte("hello")); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(d.Path, "sessions", "s1", SnapshotLog)
			b, err := os.ReadFile(p)
			if err != nil || string(b) != "hello" {
				t.Fatalf("got %q, %v", b, err)
			}
			for path, want := range map[string]os.FileMode{p: 0o600, d.Path: 0o700 | os.ModeDir} {
				if fi, _ := os.Stat(path); fi.Mode() != want {
					t.Errorf("%s: mode %v, want %v", path, fi.Mode(), want)
				}
			}
			entries, _ := os.ReadDir(filepath.Dir(p))
			if len(entries) != 1 {
				t.Errorf("temporary files left behind: %v", entries)
			}
		})
	}
}

func TestWriteReplacesALinkAtTheTargetWithoutFollowingIt(t *testing.T) {
	d := DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	elsewhere := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(elsewhere, []byte("keep me"), 0o600)
	os.Symlink(elsewhere, filepath.Join(d.Path, InitLog))
	if err := d.Write(InitLog, []byte("log")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(elsewhere); string(b) != "keep me" {
		t.Errorf("the link target was written: %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(d.Path, InitLog)); !fi.Mode().IsRegular() {
		t.Errorf("the log is still a link")
	}
}

func TestWriteRefusesUnsafeLogDirectories(t *testing.T) {
	tests := []struct {
		name  string
		setup func(project string)
		want  string
	}{
		{"logs directory is a link", func(p string) {
			os.MkdirAll(filepath.Join(p, ".claude"), 0o755)
			os.Symlink(os.TempDir(), filepath.Join(p, ".claude", "logs"))
		}, "is a symbolic link"},
		{".claude is a link", func(p string) {
			os.Symlink(os.TempDir(), filepath.Join(p, ".claude"))
		}, "is a symbolic link"},
		{"a file where the directory should be", func(p string) {
			os.MkdirAll(filepath.Join(p, ".claude"), 0o755)
			os.WriteFile(filepath.Join(p, ".claude", "logs"), nil, 0o644)
		}, "is a file where the log directory should be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := t.TempDir()
			tt.setup(project)
			err := DirFor(project).Write(InitLog, []byte("x"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	if err := DirFor(filepath.Join(t.TempDir(), ".git")).Write(InitLog, nil); err == nil || !strings.Contains(err.Error(), "inside a .git directory") {
		t.Errorf("wrote inside .git: %v", err)
	}
}

func TestWriteRefusesEverySubdirectoryOfABareRepository(t *testing.T) {
	bare := filepath.Join(t.TempDir(), "repo.git")
	for _, d := range []string{"objects/pack", "refs/heads", "hooks", "info", "mine/deeper"} {
		os.MkdirAll(filepath.Join(bare, d), 0o755)
	}
	os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	for _, sub := range []string{"", "hooks", "objects/pack", "mine/deeper"} {
		project := filepath.Join(bare, sub)
		err := DirFor(project).Write(InitLog, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), bare+" is a bare repository") {
			t.Errorf("%q: got %v, want a refusal naming %s", sub, err, bare)
		}
		if _, err := os.Stat(filepath.Join(project, ".claude")); err == nil {
			t.Errorf("%q: .claude was created inside the bare repository", sub)
		}
	}
}

func TestWriteFailureLeavesThePreviousLogIntact(t *testing.T) {
	d := DirFor(t.TempDir())
	if err := d.Write(InitLog, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A directory where the temporary file's rename target is makes the
	// rename fail after the data was written.
	os.Remove(filepath.Join(d.Path, InitLog))
	os.Mkdir(filepath.Join(d.Path, InitLog), 0o700)
	os.WriteFile(filepath.Join(d.Path, InitLog, "inner"), []byte("old"), 0o600)
	if err := d.Write(InitLog, []byte("new")); err == nil {
		t.Fatal("write over a non-empty directory succeeded")
	}
	if b, _ := os.ReadFile(filepath.Join(d.Path, InitLog, "inner")); string(b) != "old" {
		t.Errorf("previous content damaged")
	}
	if entries := logEntries(d.Path); len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct{ in, prefix string }{
		{"2410b915-0646-43d5-a159-925ba3f5083e", "2410b915-0646-43d5-a159-925ba3f5083e"},
		{"../../etc", "_.._etc-"},
		{"..", "-"},
		{"", "-"},
		{"a/b\x00c", "a_b_c-"},
		{strings.Repeat("x", 300), strings.Repeat("x", 111) + "-"},
		{strings.Repeat("x", 129), strings.Repeat("x", 111) + "-"},
		{strings.Repeat("x", 128), strings.Repeat("x", 128)}, // exactly the longest name kept
	}
	for _, tt := range tests {
		got := SafeName(tt.in)
		if !strings.HasPrefix(got, tt.prefix) || len(got) > 128 || strings.ContainsAny(got, "/\x00") || got == ".." {
			t.Errorf("SafeName(%q) = %q", tt.in, got)
		}
		if tt.in == tt.prefix && got != tt.in {
			t.Errorf("a safe id changed: %q", got)
		}
	}
	if SafeName("a/b") == SafeName("a_b") {
		t.Error("different ids share a directory")
	}
}

func TestWriteOnAFullDiskKeepsThePreviousLog(t *testing.T) {
	d := DirFor(t.TempDir())
	if err := d.Write(EndLog, []byte("previous log")); err != nil {
		t.Fatal(err)
	}
	defer func(orig func(*os.File, []byte) error) { atomicfile.WriteData = orig }(atomicfile.WriteData)
	atomicfile.WriteData = func(f *os.File, b []byte) error {
		f.Write(b[:len(b)/2]) // part of it lands, then the disk is full
		return syscall.ENOSPC
	}
	err := d.Write(EndLog, []byte("the new log, which does not fit"))
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(d.Path, EndLog)); string(b) != "previous log" {
		t.Errorf("previous log damaged: %q", b)
	}
	if entries := logEntries(d.Path); len(entries) != 1 {
		t.Errorf("partial temporary file left behind: %v", entries)
	}
}

func TestALogDirectoryFoundOpenToOthersIsMadePrivate(t *testing.T) {
	project := t.TempDir()
	d := DirFor(project)
	os.MkdirAll(filepath.Join(d.Path, "sessions"), 0o777)
	os.Chmod(d.Path, 0o777)
	os.Chmod(filepath.Join(d.Path, "sessions"), 0o755)
	if err := d.Write(SessionFile("s", EndLog), []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{d.Path, filepath.Join(d.Path, "sessions"), filepath.Join(d.Path, "sessions", "s")} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want 0700", p, fi.Mode(), err)
		}
	}
	if fi, _ := os.Stat(filepath.Join(d.Path, SessionFile("s", EndLog))); fi.Mode().Perm() != 0o600 {
		t.Errorf("log written %v, want 0600", fi.Mode())
	}
	if fi, _ := os.Stat(filepath.Join(project, ".claude")); fi.Mode().Perm() == 0o700 {
		t.Errorf(".claude is the user's, not ours: its mode is theirs")
	}
}

func TestNoLogDirectoryIsCreatedWhereTheRunSaysNotTo(t *testing.T) {
	d := DirFor(t.TempDir())
	d.NoCreate = func() string { return "no project here" }
	err := d.Write(InitLog, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "no project here") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(d.Project, ".claude")); !os.IsNotExist(err) {
		t.Errorf(".claude was made: %v", err)
	}
	os.MkdirAll(d.Path, 0o700)
	if err := d.Write(InitLog, []byte("x")); err != nil {
		t.Errorf("an existing log directory is written to: %v", err)
	}
}

func TestAnotherProjectsLogsAreNotReadThroughALinkNorAsACopy(t *testing.T) {
	root := t.TempDir()
	theirs, ours := DirFor(filepath.Join(root, "theirs")), DirFor(filepath.Join(root, "ours"))
	os.MkdirAll(theirs.Path, 0o700)
	name := filepath.Join("sessions", "s1", "handoff.json")
	if err := theirs.WriteSealed(name, []byte(`{"request": "their private work"}`), false); err != nil {
		t.Fatal(err)
	}
	if _, _, err := theirs.Read(name, 1<<20); err != nil {
		t.Fatalf("their own read: %v", err)
	}
	unsealed := filepath.Join("sessions", "s1", "claim")
	os.WriteFile(filepath.Join(theirs.Path, unsealed), []byte("their private claim"), 0o600)
	if b, _, err := theirs.ReadUnsealed(unsealed, 1<<20); err != nil || string(b) != "their private claim" {
		t.Fatalf("their own unsealed read: %q, %v", b, err)
	}
	for _, link := range []struct{ at, to string }{
		{".claude", "../theirs/.claude"},
		{".claude/logs", "../../theirs/.claude/logs"},
		{".claude/logs/sessions", "../../../theirs/.claude/logs/sessions"},
		{".claude/logs/sessions/s1", "../../../../theirs/.claude/logs/sessions/s1"},
	} {
		os.RemoveAll(ours.Project)
		at := filepath.Join(ours.Project, link.at)
		os.MkdirAll(filepath.Dir(at), 0o700)
		if err := os.Symlink(link.to, at); err != nil {
			t.Fatal(err)
		}
		if b, _, err := ours.Read(name, 1<<20); err == nil || strings.Contains(string(b), "private") {
			t.Errorf("read through %s → %s: %q, %v", link.at, link.to, b, err)
		}
		// A file no seal covers is not read through the link either: the
		// seal is not what stops it.
		if b, _, err := ours.ReadUnsealed(unsealed, 1<<20); err == nil || strings.Contains(string(b), "private") {
			t.Errorf("an unsealed file read through %s → %s: %q, %v", link.at, link.to, b, err)
		}
		if _, err := ours.ReadDir("sessions"); err == nil && link.at != ".claude/logs/sessions/s1" {
			t.Errorf("listed through %s", link.at)
		}
	}
	os.RemoveAll(ours.Project)
	os.MkdirAll(filepath.Join(ours.Path, "sessions", "s1"), 0o700)
	b, _ := os.ReadFile(filepath.Join(theirs.Path, name))
	os.WriteFile(filepath.Join(ours.Path, name), b, 0o600)
	if _, _, err := ours.Read(name, 1<<20); !errors.Is(err, seal.ErrNotSealed) {
		t.Errorf("a sealed file copied from another project: %v, want ErrNotSealed", err)
	}
	os.MkdirAll(filepath.Join(theirs.Path, "sessions", "s2"), 0o700)
	os.WriteFile(filepath.Join(theirs.Path, "sessions", "s2", "handoff.json"), b, 0o600)
	if _, _, err := theirs.Read(filepath.Join("sessions", "s2", "handoff.json"), 1<<20); !errors.Is(err, seal.ErrNotSealed) {
		t.Errorf("a sealed file moved to another session's folder: %v, want ErrNotSealed", err)
	}
}

func TestALogOfTheBudgetInCharactersIsReadBackWhateverItsScript(t *testing.T) {
	d := DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	text := "# Snapshot\n\n" + strings.Repeat("任务重写词法分析器。\n", 20000) // 220,000 characters, 620 KB
	if err := d.WriteSealed(SnapshotLog, []byte(text), false); err != nil {
		t.Fatal(err)
	}
	if b, _, err := d.Read(SnapshotLog, LogReadBytes); err != nil || len(b) < 512<<10 {
		t.Fatalf("a snapshot in Chinese of %d bytes: %d read, %v", len(text), len(b), err)
	}
	if _, _, err := d.Read(SnapshotLog, 1<<10); err == nil || errors.Is(err, seal.ErrNotSealed) || !strings.Contains(err.Error(), "over the 1024 read back") {
		t.Errorf("a file over what is read back: %v (the seal is not to blame)", err)
	}
}

// What WriteSealed writes reads back through Read, whose limit may be the
// file's exact size; one byte less and it says the file is too large.
func TestASealedLogReadsBackUpToItsExactSize(t *testing.T) {
	d := DirFor(t.TempDir())
	if err := d.WriteSealed("state.json", []byte(`{"a":1}`), false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(d.Path, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if b, _, err := d.Read("state.json", fi.Size()); err != nil || string(b) != `{"a":1}` {
		t.Errorf("read back %q, %v", b, err)
	}
	if _, _, err := d.Read("state.json", fi.Size()-1); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Errorf("a file over the limit read: %v", err)
	}
}

// A seal names the project as the file system does: the same project
// reached through a link, or by a relative path, seals alike, so its logs
// read back whichever way the client named the directory.
func TestTheSealNamesTheProjectByItsRealAbsolutePath(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	want := DirFor(real).SealName("a.json")
	if got := DirFor(link).SealName("a.json"); got != want {
		t.Errorf("through a link: %q, want %q", got, want)
	}
	t.Chdir(filepath.Dir(real))
	if got := DirFor(filepath.Base(real)).SealName("a.json"); got != want {
		t.Errorf("by a relative path: %q, want %q", got, want)
	}
}

// Exists looks in a directory reached through no link: a .claude/logs
// (or a directory below it) a repository committed as a link to another
// place is not looked in.
func TestExistsLooksThroughNoLink(t *testing.T) {
	project := t.TempDir()
	d := DirFor(project)
	if err := d.Write("state/numbers/1", []byte("s")); err != nil {
		t.Fatal(err)
	}
	exists, err := d.Exists("state/numbers")
	if err != nil || !exists("1") || exists("2") {
		t.Fatalf("a real directory: err %v, 1 found %v, 2 found %v", err, err == nil && exists("1"), err == nil && exists("2"))
	}
	elsewhere := t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "1"), []byte("s"), 0o600)
	os.RemoveAll(filepath.Join(project, ".claude", "logs", "state", "numbers"))
	os.Symlink(elsewhere, filepath.Join(project, ".claude", "logs", "state", "numbers"))
	if _, err := d.Exists("state/numbers"); err == nil {
		t.Error("a directory that is a link was looked in")
	}
}

// The log directory keeps itself out of git, wherever it is made and
// whatever the repository ignores: git status shows nothing of it. A
// directory made before gets the file at its next write; a .gitignore of
// the user's, or a link in its place, is left as it is.
func TestTheLogDirectoryKeepsItselfOutOfGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Need(t, "git", err)
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	status := func() string {
		out, _ := exec.Command("git", "-C", repo, "status", "--porcelain", "--untracked-files=all").Output()
		return string(out)
	}
	sub := DirFor(filepath.Join(repo, "pkg", "sub"))
	os.MkdirAll(sub.Project, 0o755)
	if err := sub.Write(InitLog, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if s := status(); strings.Contains(s, ".claude") {
		t.Errorf("git status shows the logs:\n%s", s)
	}
	// Made by an older version, without the file: the next write adds it.
	old := DirFor(filepath.Join(repo, "old"))
	os.MkdirAll(old.Path, 0o700)
	if err := old.Write(InitLog, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if s := status(); strings.Contains(s, ".claude") {
		t.Errorf("git status shows an older log directory:\n%s", s)
	}
	// The user's own file, and a link, stay as they are.
	mine := DirFor(filepath.Join(repo, "mine"))
	os.MkdirAll(mine.Path, 0o700)
	os.WriteFile(filepath.Join(mine.Path, ".gitignore"), []byte("session-init.md\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "target")
	linked := DirFor(filepath.Join(repo, "linked"))
	os.MkdirAll(linked.Path, 0o700)
	os.Symlink(outside, filepath.Join(linked.Path, ".gitignore"))
	mine.Write(InitLog, []byte("x"))
	linked.Write(InitLog, []byte("x"))
	if b, _ := os.ReadFile(filepath.Join(mine.Path, ".gitignore")); string(b) != "session-init.md\n" {
		t.Errorf("the user's .gitignore became %q", b)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("a link in the .gitignore's place was written through")
	}
}

// logEntries are a log directory's entries but its own .gitignore.
func logEntries(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.Name() != ".gitignore" {
			out = append(out, e.Name())
		}
	}
	return out
}
