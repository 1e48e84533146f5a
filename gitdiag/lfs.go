package gitdiag

import (
	"strings"
)

// Git LFS is the one clean filter gitdiag applies itself: git would run
// `git lfs clean` (or its filter-process), which stores the content aside
// and hands git a small pointer to it. gitdiag computes the same pointer
// without storing anything, so a large file whose stat data changed is
// compared by the pointer git would compare.

// isLFSFilter says whether a filter driver's commands are git-lfs's own.
func (r *Repo) isLFSFilter(driver string) bool {
	for key, sub := range map[string]string{"process": "filter-process", "clean": "clean"} {
		f := strings.Fields(r.cfg.GetSub("filter", driver, key))
		if len(f) >= 2 && (f[0] == "git-lfs" || strings.HasSuffix(f[0], "/git-lfs")) && f[1] == sub {
			return true
		}
	}
	return false
}

// lfsExtensions says whether git-lfs extensions (lfs.extension.*) are
// configured: they run programs of their own, which gitdiag cannot.
func (r *Repo) lfsExtensions() bool {
	for key := range r.cfg.Values {
		if strings.HasPrefix(key, "lfs.extension.") {
			return true
		}
	}
	return false
}
