package gitdiag

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/internal/rawfile"
)

// Stash is one entry of `git stash list`: its message, and the branch it
// was made on.
type Stash struct {
	Message string // "WIP on main: abc1234 subject", "On main: message"
	Branch  string
}

// Stashes lists the stash, newest first, from its reflog (what `git stash
// list` reads): at most max entries, and how many there are. The reflog is
// read line by line, keeping only the newest max: read whole, a stash
// reflog of 250 MB cost 542 MB.
func (r *Repo) Stashes(max int) ([]Stash, int) {
	f, err := rawfile.Open(filepath.Join(r.CommonDir, "logs", "refs", "stash"))
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, 0
	}
	var newest []Stash // oldest first, at most max
	n := 0
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := readLine(br, maxStashLine)
		if _, msg, ok := strings.Cut(line, "\t"); ok {
			n++
			if max > 0 {
				if len(newest) == max {
					newest = newest[1:]
				}
				newest = append(newest, Stash{Message: msg, Branch: stashBranch(msg)})
			}
		}
		if err != nil {
			break
		}
	}
	slices.Reverse(newest)
	return newest, n
}

// maxStashLine is the most of a reflog line kept: its two ids, an author,
// a time and a message of a few kilobytes. The rest of a longer line is
// skipped.
const maxStashLine = 8 << 10

// readLine reads one line without its newline, keeping at most keep
// bytes of it; err is set at the end of the input.
func readLine(br *bufio.Reader, keep int) (string, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(line) < keep {
			line = append(line, part[:min(len(part), keep-len(line))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimSuffix(string(line), "\n"), err
	}
}

// stashBranch reads the branch out of "WIP on <branch>: …" or "On <branch>: …".
func stashBranch(msg string) string {
	for _, prefix := range []string{"WIP on ", "On "} {
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			branch, _, _ := strings.Cut(rest, ":")
			return branch
		}
	}
	return ""
}

// Worktree is one linked work tree of the repository.
type Worktree struct {
	Path   string
	Branch string // "" when its HEAD is detached
	// Prunable is why git would prune it, as `git worktree list` says
	// ("gitdir file points to non-existent location"); "" when it stands.
	Prunable string
}

// Worktrees lists the linked work trees (those `git worktree add` made;
// not the main one), sorted by their name in the git directory. They are
// read once per Repo: a session start asks three times (the handoffs of
// other worktrees, the brief, the ledger).
func (r *Repo) Worktrees() []Worktree {
	r.worktreesOnce.Do(func() { r.worktrees = r.readWorktrees() })
	return slices.Clone(r.worktrees)
}

func (r *Repo) readWorktrees() []Worktree {
	names, err := filepath.Glob(filepath.Join(r.CommonDir, "worktrees", "*"))
	if err != nil {
		return nil
	}
	var out []Worktree
	for _, dir := range names {
		gitdir, err := readFile(filepath.Join(dir, "gitdir"))
		if err != nil {
			continue
		}
		w := Worktree{Path: filepath.Dir(strings.TrimSpace(string(gitdir)))}
		if _, err := os.Stat(filepath.Join(dir, "locked")); err != nil {
			if _, err := os.Stat(strings.TrimSpace(string(gitdir))); err != nil {
				w.Prunable = "gitdir file points to non-existent location"
			}
		}
		if head, err := readFile(filepath.Join(dir, "HEAD")); err == nil {
			if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/"); ok {
				w.Branch = ref
			}
		}
		out = append(out, w)
	}
	return out
}

// MainWorktree is the main work tree of a repository opened from one of
// its linked worktrees ("", false from the main one, or when the common
// directory is bare): where `git worktree list` puts it first.
func (r *Repo) MainWorktree() (Worktree, bool) {
	if filepath.Clean(r.GitDir) == filepath.Clean(r.CommonDir) || filepath.Base(r.CommonDir) != ".git" {
		return Worktree{}, false
	}
	w := Worktree{Path: filepath.Dir(r.CommonDir)}
	if head, err := readFile(filepath.Join(r.CommonDir, "HEAD")); err == nil {
		if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/"); ok {
			w.Branch = ref
		}
	}
	return w, true
}

// IsRoot says whether path is the top of this work tree.
func (r *Repo) IsRoot(path string) bool {
	a, err1 := os.Stat(path)
	b, err2 := os.Stat(r.Root)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// UpstreamGone says whether the branch has an upstream configured whose
// remote branch no longer exists (`git status -sb` shows "[gone]"), and
// names it.
func (r *Repo) UpstreamGone(head Head) (string, bool) {
	if head.Branch == "" {
		return "", false
	}
	remote := r.cfg.GetSub("branch", head.Branch, "remote")
	merge := r.cfg.GetSub("branch", head.Branch, "merge")
	full, ok := r.trackingRef(remote, merge)
	if !ok || remote == "." {
		return "", false // no upstream for git: nothing is gone
	}
	if _, err := r.resolveRef(full); err != nil {
		return shortRef(full), true
	}
	return "", false
}
