package gitdiag

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/objects"

	"github.com/session-hooks/session-hooks/gitdiag/format/config"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// A submodule is compared as git compares it: by its checked-out commit,
// then by the status of its own work tree, which git gets by running
// `git status --porcelain=2` inside it and gitdiag by opening it as a Repo.
// What counts is set by --ignore-submodules, whose default comes from
// diff.ignoreSubmodules and, per submodule, from submodule.<name>.ignore in
// the repository's config or in .gitmodules.

// ignoreSubmodules is one --ignore-submodules setting as git's diff flags.
type ignoreSubmodules struct {
	set       bool // a setting was given (git's ignore_submodule_set)
	all       bool // the submodule is not compared at all
	dirty     bool // only its checked-out commit counts
	untracked bool // untracked files inside do not make it dirty
}

// parseIgnoreSubmodules is git's handle_ignore_submodules_arg.
func parseIgnoreSubmodules(v string) (ignoreSubmodules, bool) {
	f := ignoreSubmodules{set: true}
	switch v {
	case "all":
		f.all = true
	case "dirty":
		f.dirty = true
	case "untracked":
		f.untracked = true
	case "none":
	default:
		return f, false
	}
	return f, true
}

func badIgnoreSubmodules(v string) error {
	return fmt.Errorf("fatal: bad --ignore-submodules argument: %s", v)
}

// submoduleRules are the settings of every submodule of one repository,
// for `git status` and for `git diff HEAD`, which differ in their defaults.
type submoduleRules struct {
	status, diff ignoreSubmodules
	byPath       map[string]ignoreSubmodules // submodules with a setting of their own
	unmerged     bool                        // .gitmodules has a conflict: git compares no submodule
}

// loadSubmoduleRules reads the settings once, before the walk (it may read
// .gitmodules from the object store, which the walk's goroutines must not).
func (b *statusBuilder) loadSubmoduleRules() error {
	cfg := b.repo.cfg
	var def ignoreSubmodules
	if v, ok := cfg.Values["diff.ignoresubmodules"]; ok {
		f, ok := parseIgnoreSubmodules(v.Text)
		if !ok {
			return badIgnoreSubmodules(v.Text)
		}
		def = f
	}
	rules := &submoduleRules{status: def, diff: def, byPath: map[string]ignoreSubmodules{}}
	if b.untracked == "no" {
		rules.status.untracked = true
	}
	if !def.set {
		rules.diff.untracked = true // git diff leaves untracked content out unless told
	}
	for _, e := range b.entries {
		if e.Name == ".gitmodules" && e.Stage != 0 {
			rules.unmerged = true
		}
	}
	gm := b.gitmodules()
	for key, v := range gm.Values {
		rest, ok := strings.CutPrefix(key, "submodule.")
		name, isPath := strings.CutSuffix(rest, ".path")
		if !ok || !isPath || v.Implicit {
			continue
		}
		// The repository's config overrides .gitmodules; a bad value there
		// stops git, a bad one in .gitmodules only draws a warning.
		if own, ok := cfg.Values["submodule."+name+".ignore"]; ok && !own.Implicit {
			f, ok := parseIgnoreSubmodules(own.Text)
			if !ok {
				return badIgnoreSubmodules(own.Text)
			}
			rules.byPath[v.Text] = f
		} else if f, ok := parseIgnoreSubmodules(gm.GetSub("submodule", name, "ignore")); ok {
			rules.byPath[v.Text] = f
		}
	}
	b.subRules = rules
	return nil
}

// gitmodules reads .gitmodules as git does: from the work tree, else from
// the index, else from HEAD. A file git cannot parse gives no settings.
func (b *statusBuilder) gitmodules() *config.Config {
	c := config.New()
	content, err := readFile(filepath.Join(b.repo.Root, ".gitmodules"))
	if errors.Is(err, os.ErrNotExist) {
		content, err = b.blobAt(".gitmodules")
	}
	if err != nil {
		return c
	}
	if config.Parse(content, func(key string, v config.Value) error {
		c.Values[key] = v
		return nil
	}, ".gitmodules") != nil {
		return config.New()
	}
	return c
}

// blobAt reads the index's version of path, or HEAD's.
func (b *statusBuilder) blobAt(path string) ([]byte, error) {
	var id plumbing.Hash
	if e := b.tracked(path); e != nil {
		id = e.Hash
	} else if h, ok := b.head[path]; ok {
		id = h.hash
	} else {
		return nil, os.ErrNotExist
	}
	store, err := b.repo.objects()
	if err != nil {
		return nil, err
	}
	return store.ReadAs(id, objects.TypeBlob)
}

// forStatus and forDiff give the settings that apply to the submodule at
// path, as git's set_diffopt_flags_from_submodule_config does.
func (r *submoduleRules) forStatus(path string) ignoreSubmodules {
	return r.override(path, r.status)
}

func (r *submoduleRules) forDiff(path string) ignoreSubmodules {
	return r.override(path, r.diff)
}

func (r *submoduleRules) override(path string, def ignoreSubmodules) ignoreSubmodules {
	if f, ok := r.byPath[path]; ok {
		return f
	}
	if r.unmerged {
		return ignoreSubmodules{set: true, all: true}
	}
	return def
}

// submoduleState is what the walk found in a checked-out submodule.
type submoduleState struct {
	head                plumbing.Hash // its checked-out commit
	moved               bool          // head differs from the index's commit
	modified, untracked bool          // its work tree has tracked changes, untracked files
	diff                ignoreSubmodules
}

// checkSubmodule sets a submodule's work tree letter as `git status
// --short` shows it: M for another commit checked out, m for modified
// content, ? for untracked content only.
func (b *statusBuilder) checkSubmodule(e *trackedEntry) error {
	status, diff := b.subRules.forStatus(e.Name), b.subRules.forDiff(e.Name)
	// Until it is found checked out, its commit is the index's.
	s := &submoduleState{head: e.Hash, diff: diff}
	e.sub = s
	root := filepath.Join(b.repo.Root, filepath.FromSlash(e.Name))
	gitDir, err := findGitDir(root)
	if err != nil || status.all && diff.all {
		return nil // not checked out (git shows nothing either), or not compared
	}
	if !b.repo.within(gitDir) {
		// Its .git names another repository's git directory: git would
		// read that one; the repository names nothing we read outside it.
		b.repo.notFollowed("the gitfile of submodule " + e.Name)
		return nil
	}
	// git cannot read a submodule it cannot open either: its status fails.
	sub, err := newRepo(root, root, gitDir)
	if err != nil {
		return fmt.Errorf("submodule %s: %w", e.Name, err)
	}
	defer sub.Close()
	h, err := sub.Head()
	if err != nil {
		return fmt.Errorf("submodule %s: %w", e.Name, err)
	}
	// Without a commit checked out there is no commit to compare, but git
	// still looks at the content.
	if !h.Unborn {
		s.head, s.moved = h.Hash, h.Hash != e.Hash
	}
	if !s.moved && !(status.dirty && diff.dirty) {
		sub.noUntracked = status.untracked && diff.untracked
		if err := s.lookInside(b, sub); err != nil {
			return fmt.Errorf("fatal: 'git status --porcelain=2' failed in submodule %s: %w", e.Name, err)
		}
	}
	switch {
	case status.all:
	case s.moved:
		e.y = 'M'
	case status.dirty:
	case s.modified:
		e.y = 'm'
	case s.untracked && !status.untracked:
		e.y = '?'
	}
	return nil
}

// lookInside reads the submodule's status as git's is_submodule_modified
// reads its porcelain v2 lines: an untracked file, or a nested submodule
// with nothing but untracked content, is untracked content; anything else
// is a modification.
func (s *submoduleState) lookInside(b *statusBuilder, sub *Repo) error {
	st, err := sub.Status(b.ctx)
	if err != nil {
		return err
	}
	for _, f := range st.Files {
		if f.Y == '?' {
			s.untracked = true
		} else {
			s.modified = true
		}
	}
	return nil
}

// differsFromHEAD says whether `git diff HEAD` lists the submodule, whose
// commit in HEAD is h (inHEAD false when HEAD has none).
func (s *submoduleState) differsFromHEAD(h headEntry, inHEAD bool) bool {
	switch {
	case !inHEAD || h.mode != filemode.Submodule:
		return true
	case s.diff.all:
		return false
	case s.moved || s.head != h.hash:
		return true
	case s.diff.dirty:
		return false
	}
	return s.modified || s.untracked && !s.diff.untracked
}
