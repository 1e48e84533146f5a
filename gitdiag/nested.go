package gitdiag

import (
	"os"
	"path/filepath"
	"strings"
)

// nestedRepo says whether the untracked directory p (relative to the top
// of the work tree) is a repository of its own, which git shows as "p/"
// and never enters. As git's is_nonbare_repository_dir, that takes a .git
// that is a git directory, or a file naming one ("gitdir: …"); a .git that
// is neither (junk a repository committed, an empty directory) is a name
// like any other, and the directory is walked.
func (r *Repo) nestedRepo(p string) bool {
	dir := filepath.Join(r.Root, filepath.FromSlash(p))
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return false
	case fi.IsDir():
		return isGitDirectory(dotgit)
	case !fi.Mode().IsRegular():
		return false
	}
	b, err := readFile(dotgit)
	if err != nil {
		return false
	}
	target, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
	if !ok || target == "" {
		return false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	return isGitDirectory(target)
}

// isGitDirectory is git's is_git_directory: objects/ and refs/ (in the
// common directory a commondir file names, for a linked worktree's), and
// a HEAD that is a symbolic ref below refs/ or an object id.
func isGitDirectory(dir string) bool {
	common := dir
	if b, err := readFile(filepath.Join(dir, "commondir")); err == nil {
		c := strings.TrimRight(string(b), "\r\n")
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		common = c
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	head, err := readFile(filepath.Join(dir, "HEAD"))
	if err != nil {
		return false
	}
	h := strings.TrimRight(string(head), "\r\n")
	if ref, ok := strings.CutPrefix(h, "ref:"); ok {
		return strings.HasPrefix(strings.TrimLeft(ref, " \t"), "refs/")
	}
	return (len(h) == 40 || len(h) == 64) && strings.Trim(h, "0123456789abcdef") == ""
}
