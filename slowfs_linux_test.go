package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/internal/testenv"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// slowNode is a loopback file system node that waits before every call:
// a network mount on a bad day, or a disk dying slowly.
type slowNode struct {
	fs.LoopbackNode
	delay time.Duration
}

func (n *slowNode) wait() { time.Sleep(n.delay) }

func (n *slowNode) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	n.wait()
	return n.LoopbackNode.Lookup(ctx, name, out)
}

func (n *slowNode) Getattr(ctx context.Context, f fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	n.wait()
	return n.LoopbackNode.Getattr(ctx, f, out)
}

func (n *slowNode) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	n.wait()
	return n.LoopbackNode.Open(ctx, flags)
}

func (n *slowNode) Readdir(ctx context.Context) (fs.DirStream, syscall.Errno) {
	n.wait()
	return n.LoopbackNode.Readdir(ctx)
}

func (n *slowNode) Create(ctx context.Context, name string, flags, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	n.wait()
	return n.LoopbackNode.Create(ctx, name, flags, mode, out)
}

func (n *slowNode) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	n.wait()
	return n.LoopbackNode.Mkdir(ctx, name, mode, out)
}

func (n *slowNode) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	n.wait()
	return n.LoopbackNode.Rename(ctx, name, newParent, newName, flags)
}

var _ = (fs.NodeLookuper)((*slowNode)(nil))

// mountSlow mounts dir at a new mount point with every call delayed.
func mountSlow(t *testing.T, dir string, delay time.Duration) string {
	t.Helper()
	_, err := os.Stat("/dev/fuse")
	testenv.Need(t, "/dev/fuse (to mount the slow file system)", err)
	root := &fs.LoopbackRoot{Path: dir}
	//lint:ignore SA1019 the loopback's NewNode still builds every node here; NodeWrapChilder needs go-fuse's newer node API
	root.NewNode = func(r *fs.LoopbackRoot, _ *fs.Inode, _ string, _ *syscall.Stat_t) fs.InodeEmbedder {
		return &slowNode{LoopbackNode: fs.LoopbackNode{RootData: r}, delay: delay}
	}
	root.RootNode = &slowNode{LoopbackNode: fs.LoopbackNode{RootData: root}, delay: delay}
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	root.Dev = uint64(st.Dev)
	mnt := t.TempDir()
	zero := time.Duration(0)
	server, err := fs.Mount(mnt, root.RootNode, &fs.Options{
		EntryTimeout: &zero, AttrTimeout: &zero, NegativeTimeout: &zero, // every call reaches us
		MountOptions: fuse.MountOptions{DirectMount: true, FsName: "slowfs", AllowOther: os.Geteuid() == 0},
	})
	if err != nil {
		t.Fatalf("mounting the slow file system (needs root or fusermount): %v", err)
	}
	t.Cleanup(func() {
		if server.Unmount() != nil {
			syscall.Unmount(mnt, syscall.MNT_DETACH)
		}
	})
	return mnt
}

// On a file system where every call takes 150 ms, each hook answers by
// its deadline with what it gathered and says what it skipped, instead of
// "nothing was injected".
func TestASlowFileSystemGetsAnAnswerByTheDeadline(t *testing.T) {
	bin := hookBinary(t)
	e := newFaultEnv(t).repo()
	for i := range 30 {
		e.write(filepath.Join("src", string(rune('a'+i%26))+".go"), "package src\n")
	}
	e.write(".claude/session-hooks.json", `{"longRunning": {"enabled": true}}`)
	e.write("CLAUDE.md", "# rules\n")
	e.write("feature_list.json", `[{"id":"f1","passes":false}]`)
	e.git("add", "-A")
	e.git("commit", "-qm", "files")
	mnt := mountSlow(t, e.project, 150*time.Millisecond)
	for _, tc := range []struct {
		event    []string
		deadline time.Duration
	}{
		{[]string{"init"}, 2 * time.Second},
		{[]string{"pre-compact"}, 2 * time.Second},
		{[]string{"end"}, time.Second},
	} {
		t.Run(tc.event[0], func(t *testing.T) {
			payload, _ := json.Marshal(map[string]any{"session_id": "slow", "cwd": mnt, "transcript_path": filepath.Join(mnt, "none.jsonl")})
			cmd := exec.Command(bin, tc.event...)
			cmd.Dir = e.root
			cmd.Env = append(os.Environ(), "SESSION_HOOKS_TIMEOUT="+tc.deadline.String(), "SESSION_HOOKS_OUTPUT=full")
			cmd.Stdin = bytes.NewReader(payload)
			var stdout, stderr bytes.Buffer
			cmd.Stderr = &stderr
			pipe, _ := cmd.StdoutPipe()
			start := time.Now()
			cmd.Start()
			first := make([]byte, 1)
			pipe.Read(first)
			answered := time.Since(start)
			stdout.Write(first)
			stdout.ReadFrom(pipe)
			err := cmd.Wait()
			took := time.Since(start)
			out := stdout.String()
			if err != nil || stderr.Len() > 0 {
				t.Errorf("exit %v, stderr %q", err, stderr.String())
			}
			// The answer is printed before the deadline; the exit may
			// follow a little later, while the kernel takes back the
			// threads still waiting on the file system (measured: up to
			// two of its delays). Both as the machine's load stretches them.
			slowdown := testenv.Slowdown()
			scaled := func(d time.Duration) time.Duration { return time.Duration(float64(d) * slowdown) }
			if answered > scaled(tc.deadline) || took > scaled(tc.deadline*13/10) {
				t.Errorf("answered after %s, exited after %s; deadline %s, the machine %.1f× slower than idle", answered, took, tc.deadline, slowdown)
			}
			if strings.Contains(out, "nothing was injected") || !strings.Contains(out, "deadline") {
				t.Errorf("no partial answer saying what the deadline cut (%s):\n%s", took, clipText(out, 3000))
			}
			t.Logf("%s answered after %s, exited after %s", tc.event[0], answered.Round(time.Millisecond), took.Round(time.Millisecond))
		})
	}
}
