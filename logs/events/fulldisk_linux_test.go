package events

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/logs"
)

// On a full disk (here a file-size limit, which Linux enforces the same
// way: the write lands in part, then fails) the event is reported lost and
// the log is cut back to its last whole line, not left with a torn one
// that would hide the next event's start.
//
// The limit is the whole process's: the test runs in a child of its own,
// so that no other file the test binary writes (go test's log of the files
// a test opened, for its cache) meets it.
func TestALineThatLandsInPartIsCutBackAndReported(t *testing.T) {
	if os.Getenv(fullDiskChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
		cmd.Env = append(os.Environ(), fullDiskChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
			t.Errorf("in a child process: %v\n%s", err, out)
		}
		return
	}
	d := logs.DirFor(t.TempDir())
	os.MkdirAll(d.Path, 0o700)
	old := sealedLine(t, d, `{"time":"2026-01-01T00:00:00Z","subcommand":"init","version":"old"}`)
	path := filepath.Join(d.Path, File)
	os.WriteFile(path, []byte(old), 0o600)

	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Skip("no file-size limit here:", err)
	}
	tight := was
	tight.Cur = uint64(len(old) + 40)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &tight); err != nil {
		t.Skip("cannot set a file-size limit:", err)
	}
	err := Append(d, Event{Time: time.Now(), Subcommand: "end", Injected: strings.Repeat("x", 200)})
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was)

	if err == nil {
		t.Error("a line that did not fit was reported written")
	}
	if got := string(mustRead(t, path)); got != old {
		t.Errorf("the log was not cut back to its last whole line: %d bytes, want %d", len(got), len(old))
	}
}

// fullDiskChild marks the child process the full-disk test runs in.
const fullDiskChild = "SESSION_HOOKS_TEST_FULL_DISK_CHILD"
