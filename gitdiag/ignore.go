package gitdiag

import (
	"github.com/session-hooks/session-hooks/gitdiag/format/ignore"
)

// baseIgnore returns the patterns that apply everywhere in the work tree.
func (r *Repo) baseIgnore() ignore.Rules {
	var rules ignore.Rules
	fold := r.ignoreCase()
	global, info := r.ignoreFiles()
	if global != "" {
		rules = withIgnoreFile(rules, global, fold)
	}
	return withIgnoreFile(rules, info, fold)
}

// ignoreCase is core.ignoreCase, which git sets on case-insensitive file
// systems (macOS, Windows): names then match patterns and the index in
// either case.
func (r *Repo) ignoreCase() bool { return r.cfg.GetBool("core.ignoreCase", false) }

// withIgnoreFile returns rules plus the patterns of an ignore file that applies
// to the whole work tree.
func withIgnoreFile(rules ignore.Rules, path string, fold bool) ignore.Rules {
	b, err := readFile(path)
	if err != nil || len(b) == 0 {
		return rules
	}
	return rules.WithPatterns(b, "", fold)
}
