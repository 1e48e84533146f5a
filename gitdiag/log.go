package gitdiag

import (
	"container/heap"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/go-git/go-git/v5/plumbing"
)

// Commit is one line of `git log --oneline`.
type Commit struct {
	Hash        plumbing.Hash
	Abbrev      string   // shortest unique prefix, at git's default length
	Subject     string   // first paragraph, lines joined by spaces
	Decorations []string // as git prints them: "HEAD -> main", "tag: v1", "origin/main"
}

// Oneline formats c as `git log --oneline [--decorate]` does.
func (c Commit) Oneline() string {
	if len(c.Decorations) == 0 {
		return c.Abbrev + " " + c.Subject
	}
	return c.Abbrev + " (" + strings.Join(c.Decorations, ", ") + ") " + c.Subject
}

// Log returns up to n commits reachable from HEAD, newest first by committer
// date, as `git log -n` orders them. It reads only the commits it returns and
// their parents, so its cost does not grow with history length.
func (r *Repo) Log(ctx context.Context, n int, decorate bool) ([]Commit, error) {
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	if head.Unborn {
		return nil, nil
	}
	store, err := r.objects()
	if err != nil {
		return nil, err
	}
	var decos map[plumbing.Hash][]string
	if decorate {
		if decos, err = r.decorations(head); err != nil {
			return nil, err
		}
	}
	abbrev := r.abbreviator(store)
	q := &commitQueue{}
	seen := map[plumbing.Hash]bool{}
	push := func(h plumbing.Hash) error {
		if seen[h] {
			return nil
		}
		seen[h] = true
		c, err := store.Commit(h)
		if err != nil {
			return fmt.Errorf("fatal: bad object %s: %w", h, err)
		}
		q.push(c)
		return nil
	}
	if err := push(head.Hash); err != nil {
		return nil, err
	}
	var out []Commit
	for q.Len() > 0 && len(out) < n {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		c := heap.Pop(q).(*queued).c
		out = append(out, Commit{Hash: c.Hash, Abbrev: abbrev.Shortest(c.Hash),
			Subject: subject(c.Message), Decorations: decos[c.Hash]})
		if len(out) == n {
			break
		}
		for _, p := range c.Parents {
			if err := push(p); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// subject is git's format_subject: leading blank lines skipped, then the
// lines of the first paragraph, trailing white space trimmed, joined by " ".
// Unlike git, which prints it raw, control characters are dropped (so an
// escape sequence in a commit message cannot reach a terminal, a log
// viewer or the model) and invalid UTF-8 is replaced.
func subject(msg string) string {
	return printable(formatSubject(msg))
}

// printable drops C0 and C1 control characters (tabs kept) and repairs
// invalid UTF-8; what remains of an escape sequence is harmless text.
func printable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
}

func formatSubject(msg string) string {
	lines := strings.Split(msg, "\n")
	var parts []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r\v\f")
		if l == "" {
			if len(parts) > 0 {
				break
			}
			continue
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

// commitQueue orders commits by committer date, newest first; equal dates
// come out in the order they went in, as in git's revision walk.
type commitQueue struct {
	items []*queued
	seq   int
}

type queued struct {
	c   *objects.Commit
	seq int
}

func (q *commitQueue) push(c *objects.Commit) {
	q.seq++
	heap.Push(q, &queued{c: c, seq: q.seq})
}

func (q *commitQueue) Len() int { return len(q.items) }
func (q *commitQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if da, db := a.c.When, b.c.When; da != db {
		return da > db
	}
	return a.seq < b.seq
}
func (q *commitQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *commitQueue) Push(x any)    { q.items = append(q.items, x.(*queued)) }
func (q *commitQueue) Pop() any {
	last := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return last
}

// decorations maps commits to the names git's --decorate prints for them.
// Git prepends each ref as it iterates them in name order, then HEAD, and
// folds the branch HEAD points to into "HEAD -> branch".
func (r *Repo) decorations(head Head) (map[plumbing.Hash][]string, error) {
	refs, err := r.allRefs()
	if err != nil {
		return nil, err
	}
	byCommit := map[plumbing.Hash][]decoration{}
	replaced := r.replaceBase()
	for _, ref := range refs {
		name, ok := decorationName(ref.name)
		target := r.peel(ref)
		if id, isReplace := strings.CutPrefix(ref.name, replaced); replaced != "" && isReplace && plumbing.IsHash(id) {
			// git names the replaced object, not its replacement.
			name, ok, target = "replaced", true, plumbing.NewHash(id)
		}
		if !ok {
			continue
		}
		byCommit[target] = append([]decoration{{name: name, ref: ref.name}}, byCommit[target]...)
	}
	out := map[plumbing.Hash][]string{}
	for h, ds := range byCommit {
		var names []string
		for _, d := range ds {
			if h == head.Hash && !head.Detached && d.ref == "refs/heads/"+head.Branch {
				continue // shown as HEAD -> branch
			}
			names = append(names, d.name)
		}
		out[h] = names
	}
	if !head.Unborn {
		label := "HEAD"
		if !head.Detached && containsBranch(byCommit[head.Hash], "refs/heads/"+head.Branch) {
			label = "HEAD -> " + head.Branch
		}
		out[head.Hash] = append([]string{label}, out[head.Hash]...)
	}
	// A shallow clone's boundary commits: git adds them after HEAD, so
	// they come first.
	for h := range readShallow(filepath.Join(r.CommonDir, "shallow")) {
		out[h] = append([]string{"grafted"}, out[h]...)
	}
	for h := range readGrafts(filepath.Join(r.CommonDir, "info", "grafts")) {
		if !slices.Contains(out[h], "grafted") {
			out[h] = append([]string{"grafted"}, out[h]...)
		}
	}
	return out, nil
}

// decoration is one name git prints for a commit, with the full ref name so
// the branch HEAD points to can be found.
type decoration struct {
	name, ref string
}

func containsBranch(ds []decoration, full string) bool {
	for _, d := range ds {
		if d.ref == full {
			return true
		}
	}
	return false
}

// decorationName is git's default decoration filter (branches, remote
// branches, tags) and its short names.
func decorationName(full string) (string, bool) {
	switch {
	case strings.HasPrefix(full, "refs/heads/"):
		return strings.TrimPrefix(full, "refs/heads/"), true
	case strings.HasPrefix(full, "refs/remotes/"):
		return strings.TrimPrefix(full, "refs/remotes/"), true
	case strings.HasPrefix(full, "refs/tags/"):
		return "tag: " + strings.TrimPrefix(full, "refs/tags/"), true
	}
	return "", false
}

// peel returns the commit a ref names: packed-refs records peeled tags; a
// loose annotated tag is read.
func (r *Repo) peel(ref ref) plumbing.Hash {
	if !ref.peeled.IsZero() {
		return ref.peeled
	}
	if !strings.HasPrefix(ref.name, "refs/tags/") {
		return ref.hash
	}
	store, err := r.objects()
	if err != nil {
		return ref.hash
	}
	h := ref.hash
	for i := 0; i < 10; i++ {
		target, ok := store.TagTarget(h)
		if !ok {
			return h
		}
		h = target
	}
	return h
}
