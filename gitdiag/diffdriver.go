package gitdiag

import (
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"
)

// diffDriverBinary is what git's diff driver for path (userdiff.c) says of
// its content: 1, binary ("-diff", "binary", or diff=<driver> with
// diff.<driver>.binary true); 0, text whatever the content ("diff" set, or
// diff.<driver>.binary false); -1, the content decides (a NUL in its first
// 8000 bytes makes it binary), also for a value git would refuse.
func (r *Repo) diffDriverBinary(a *attributes.Stack, path string) int {
	st := a.Lookup(path, "diff")["diff"]
	switch st.Kind {
	case attributes.Unset:
		return 1
	case attributes.Set:
		return 0
	case attributes.Valued:
		v, ok := r.cfg.Values["diff."+st.Value+".binary"]
		switch {
		case !ok || !v.Implicit && strings.EqualFold(v.Text, "auto"):
			return -1
		case r.cfg.GetBool("diff."+st.Value+".binary", false):
			return 1
		case isBoolText(v.Text):
			return 0
		}
	}
	return -1
}

// isBoolText says whether s is one of git's spellings of a boolean.
func isBoolText(s string) bool {
	switch strings.ToLower(s) {
	case "true", "yes", "on", "1", "false", "no", "off", "0", "":
		return true
	}
	return false
}

// isBinaryAs decides as git's diff_filespec_is_binary: the driver's word,
// else the content.
func isBinaryAs(driver int, content []byte) bool {
	if driver >= 0 {
		return driver == 1
	}
	return isBinary(content)
}

// diffAttributes are the attributes a diff between two commits looks up:
// the work tree's .gitattributes files, then the global files and
// info/attributes (in a bare repository only the latter). Unlike the
// status, it does not fall back to the index's copy of a .gitattributes
// missing from the work tree: git does not read the index for a diff
// between trees.
func (r *Repo) diffAttributes() *attributes.Stack {
	if r.diffAttrs == nil {
		r.diffAttrs = r.newAttributes(func(string) ([]byte, bool) { return nil, false })
	}
	return r.diffAttrs
}
