package gitdiag

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/session-hooks/session-hooks/gitdiag/format/objects"
)

// Operation is a multi-step git operation left in progress in the work
// tree, as git status reports it (wt-status.c's wt_status_get_state): a
// merge, a rebase (with its step), an am session, a cherry-pick, a revert,
// a bisect.
type Operation struct {
	Kind   string // merge, rebase, am, cherry-pick, revert, bisect
	Step   int    // rebase and am: the step being applied, 1-based; 0 when unknown
	Steps  int    // and how many there are
	Branch string // rebase: the branch being rebased; bisect: where it started
	Onto   string // rebase: the commit it is replayed onto, abbreviated
	Commit string // cherry-pick, revert: the commit being applied, abbreviated
	// Left is how many commits a cherry-pick or revert sequence has still
	// to apply (its sequencer/todo), 0 when none or unknown.
	Left int
}

// String says it as git status does, in one line.
func (o Operation) String() string {
	return o.Format(func(s string) string { return s })
}

// Format says what String says, each name read from the repository (a
// branch, a commit) passed through quote: those are the repository's text,
// which a reader must not take for the sentence around them.
func (o Operation) Format(quote func(string) string) string {
	switch o.Kind {
	case "merge":
		return "a merge is in progress"
	case "rebase", "am":
		what := "a rebase"
		if o.Kind == "am" {
			what = "an am session"
		}
		s := what + " is in progress"
		if o.Branch != "" {
			s += " (branch " + quote(o.Branch)
			if o.Onto != "" {
				s += " onto " + quote(o.Onto)
			}
			s += ")"
		}
		if o.Steps > 0 {
			s += fmt.Sprintf(", at step %d of %d", o.Step, o.Steps)
		}
		return s
	case "cherry-pick", "revert":
		s := "a " + o.Kind + " is in progress"
		if o.Commit != "" {
			s += " (commit " + quote(o.Commit) + ")"
		}
		if o.Left > 0 {
			s += fmt.Sprintf(", %d commit(s) left to apply (git %s --continue)", o.Left, o.Kind)
		}
		return s
	case "bisect":
		s := "a bisect is in progress"
		if o.Branch != "" {
			s += " (started from " + quote(o.Branch) + ")"
		}
		return s
	}
	return quote(o.Kind) + " in progress"
}

// InProgress lists the operations in progress, as git status finds them
// in the git directory: a rebase or am first (a cherry-pick may run inside
// one), then a merge, a cherry-pick, a revert, and a bisect, which may run
// beside any of them.
func (r *Repo) InProgress() []Operation {
	var ops []Operation
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(r.GitDir, name))
		return err == nil
	}
	read := func(name string) string {
		b, err := readFile(filepath.Join(r.GitDir, name))
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	switch {
	case exists("rebase-merge"):
		o := Operation{Kind: "rebase", Branch: strings.TrimPrefix(read("rebase-merge/head-name"), "refs/heads/"),
			Onto: r.abbrev(read("rebase-merge/onto"))}
		o.Step, _ = strconv.Atoi(read("rebase-merge/msgnum"))
		o.Steps, _ = strconv.Atoi(read("rebase-merge/end"))
		ops = append(ops, o)
	case exists("rebase-apply"):
		o := Operation{Kind: "rebase"}
		if exists("rebase-apply/applying") {
			o.Kind = "am"
		} else {
			o.Branch = strings.TrimPrefix(read("rebase-apply/head-name"), "refs/heads/")
			o.Onto = r.abbrev(read("rebase-apply/onto"))
		}
		o.Step, _ = strconv.Atoi(read("rebase-apply/next"))
		o.Steps, _ = strconv.Atoi(read("rebase-apply/last"))
		ops = append(ops, o)
	}
	if exists("MERGE_HEAD") {
		ops = append(ops, Operation{Kind: "merge"})
	}
	// A sequence of picks or reverts left half done (a conflict resolved
	// with git commit, not --continue) has no CHERRY_PICK_HEAD any more,
	// but git status still says it is in progress, from sequencer/todo.
	seqKind, left := sequence(read("sequencer/todo"))
	if exists("CHERRY_PICK_HEAD") || seqKind == "cherry-pick" {
		ops = append(ops, Operation{Kind: "cherry-pick", Commit: r.abbrev(read("CHERRY_PICK_HEAD")), Left: left})
	}
	if exists("REVERT_HEAD") || seqKind == "revert" {
		ops = append(ops, Operation{Kind: "revert", Commit: r.abbrev(read("REVERT_HEAD")), Left: left})
	}
	if exists("BISECT_LOG") {
		// A bisect started from a detached HEAD records its id: git
		// abbreviates it.
		ops = append(ops, Operation{Kind: "bisect", Branch: r.abbrev(read("BISECT_START"))})
	}
	return ops
}

// sequence is git's sequencer_get_last_command: the kind of sequence
// sequencer/todo holds by its first command (pick or p, revert), "" for
// none, and how many commands are left.
func sequence(todo string) (kind string, left int) {
	for _, line := range strings.Split(todo, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if left == 0 {
			word, _, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
			switch word {
			case "pick", "p":
				kind = "cherry-pick"
			case "revert":
				kind = "revert"
			default:
				return "", 0
			}
		}
		left++
	}
	return kind, left
}

// abbrev shortens a full commit id to git's default abbreviation; other
// text is returned as it is.
func (r *Repo) abbrev(id string) string {
	if len(id) != 40 {
		return id
	}
	if store, err := r.objects(); err == nil {
		return r.abbreviator(store).Shortest(plumbing.NewHash(id))
	}
	return id[:max(7, r.abbrevMin())]
}

// abbreviator abbreviates as git does here: core.abbrev's length when it
// sets one (4 to 40; "no" is the whole id), else git's automatic one.
func (r *Repo) abbreviator(store *objects.Store) *objects.Abbreviator {
	a := objects.NewAbbreviator(store)
	if n := r.abbrevMin(); n > 0 {
		return a.WithMin(n)
	}
	return a
}

// abbrevMin is core.abbrev as a length, 0 for auto (or a value git
// refuses, out of 4 to 40).
func (r *Repo) abbrevMin() int {
	v := strings.ToLower(strings.TrimSpace(r.cfg.Get("core.abbrev")))
	switch v {
	case "", "auto":
		return 0
	case "no", "false", "off":
		return 40
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 4 && n <= 40 {
		return n
	}
	return 0
}
