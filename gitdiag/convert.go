package gitdiag

import (
	"bytes"
	"strings"

	"github.com/session-hooks/session-hooks/gitdiag/format/attributes"
)

// Before hashing a work tree file, git converts it as it would on `git
// add` (convert.c's convert_to_git): the clean filter, the
// working-tree-encoding, line endings, then $Id$. gitdiag applies the line
// endings, ident and Git LFS's filter itself; it runs no other filter
// program and converts no encoding, and says so in Repo.Engine when a file
// that needs one had to be hashed.

// crlfAction is git's crlf_action, reduced to what the clean direction
// distinguishes.
type crlfAction int

const (
	crlfBinary crlfAction = iota // no conversion
	crlfText                     // CRLF becomes LF
	crlfAuto                     // CRLF becomes LF in a file that looks like text, unless the index copy has CRLF
)

// cleanRules is how one file is converted on its way into the repository.
type cleanRules struct {
	crlf     crlfAction
	ident    bool
	lfs      bool   // git-lfs's clean filter, which gitdiag applies itself
	filter   string // a configured clean filter gitdiag cannot run
	encoding string // a working-tree-encoding gitdiag does not convert
}

// plain says the content is hashed as it is.
func (c cleanRules) plain() bool {
	return c.crlf == crlfBinary && !c.ident && !c.lfs && c.filter == "" && c.encoding == ""
}

// cleanRulesFor is convert.c's convert_attrs for path.
func (b *statusBuilder) cleanRulesFor(path string) cleanRules {
	r := b.repo
	at := b.attributes().Lookup(path, "text", "crlf", "eol", "ident", "filter", "working-tree-encoding")
	action, defined := crlfFromAttr(at["text"])
	if !defined {
		action, defined = crlfFromAttr(at["crlf"])
	}
	if eol := at["eol"]; action != crlfBinary && eol.Kind == attributes.Valued && (eol.Value == "lf" || eol.Value == "crlf") {
		if !defined {
			action, defined = crlfText, true // an eol makes the file text
		}
	}
	if !defined {
		switch autocrlf := strings.ToLower(r.cfg.Get("core.autocrlf")); {
		case autocrlf == "input" || r.cfg.GetBool("core.autocrlf", false):
			action = crlfAuto
		default:
			action = crlfBinary
		}
	}
	c := cleanRules{crlf: action, ident: at["ident"].Kind == attributes.Set}
	if f := at["filter"]; f.Kind == attributes.Valued && (r.cfg.GetSub("filter", f.Value, "clean") != "" || r.cfg.GetSub("filter", f.Value, "process") != "") {
		if r.isLFSFilter(f.Value) && !r.lfsExtensions() {
			c.lfs = true
		} else {
			c.filter = f.Value
		}
	}
	if e := at["working-tree-encoding"]; e.Kind == attributes.Valued && !strings.EqualFold(e.Value, "UTF-8") {
		c.encoding = e.Value
	}
	return c
}

// crlfFromAttr is git_path_check_crlf for the text (or legacy crlf)
// attribute; defined is false where git's answer is CRLF_UNDEFINED.
func crlfFromAttr(s attributes.State) (action crlfAction, defined bool) {
	switch {
	case s.Kind == attributes.Set:
		return crlfText, true
	case s.Kind == attributes.Unset:
		return crlfBinary, true
	case s.Kind == attributes.Valued && s.Value == "input":
		return crlfText, true
	case s.Kind == attributes.Valued && s.Value == "auto":
		return crlfAuto, true
	}
	return crlfBinary, false
}

// clean converts content as git would before hashing it. indexHasCRLF
// reports whether the index's copy of the file has CRLF line endings, which
// turns crlfAuto off (git's "safer autocrlf").
func (c cleanRules) clean(content []byte, indexHasCRLF func() bool) []byte {
	content = c.crlfToGit(content, indexHasCRLF)
	if c.ident {
		content = identToGit(content)
	}
	return content
}

// crlfToGit is convert.c's crlf_to_git.
func (c cleanRules) crlfToGit(src []byte, indexHasCRLF func() bool) []byte {
	if c.crlf == crlfBinary || len(src) == 0 {
		return src
	}
	st := gatherStats(src)
	if st.crlf == 0 {
		return src
	}
	if c.crlf == crlfAuto {
		if st.binary() || indexHasCRLF() {
			return src
		}
		// A file with a lone CR was taken for binary above, so every CR
		// here comes before an LF.
		return bytes.ReplaceAll(src, []byte("\r"), nil)
	}
	return bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
}

// textStats is convert.c's struct text_stat.
type textStats struct {
	nul, loneCR, loneLF, crlf, printable, nonPrintable int
}

// gatherStats is convert.c's gather_stats.
func gatherStats(b []byte) textStats {
	var s textStats
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
		case c == '\n':
			s.loneLF++
		case c == 127:
			s.nonPrintable++
		case c == '\b' || c == '\t' || c == '\033' || c == '\014':
			s.printable++
		case c == 0:
			s.nul++
			s.nonPrintable++
		case c < 32:
			s.nonPrintable++
		default:
			s.printable++
		}
	}
	// A final ^Z (DOS end of file) does not count as non-printable.
	if len(b) > 0 && b[len(b)-1] == '\032' {
		s.nonPrintable--
	}
	return s
}

// binary is convert.c's convert_is_binary.
func (s textStats) binary() bool {
	return s.loneCR > 0 || s.nul > 0 || s.printable>>7 < s.nonPrintable
}

// hasCRLFText is what has_crlf_in_index asks of the index's copy: CRLF
// line endings in a file that is not binary.
func hasCRLFText(b []byte) bool {
	if bytes.IndexByte(b, '\r') < 0 {
		return false
	}
	s := gatherStats(b)
	return !s.binary() && s.crlf > 0
}

// identToGit is convert.c's ident_to_git: "$Id: anything$" becomes "$Id$"
// when no line break comes before the closing dollar.
func identToGit(src []byte) []byte {
	if !bytes.Contains(src, []byte("$Id")) {
		return src
	}
	var out bytes.Buffer
	for {
		dollar := bytes.IndexByte(src, '$')
		if dollar < 0 {
			break
		}
		out.Write(src[:dollar+1])
		src = src[dollar+1:]
		if len(src) > 3 && bytes.HasPrefix(src, []byte("Id:")) {
			end := bytes.IndexByte(src[3:], '$')
			if end < 0 {
				break
			}
			if bytes.IndexByte(src[3:3+end], '\n') >= 0 {
				continue
			}
			out.WriteString("Id$")
			src = src[3+end+1:]
		}
	}
	out.Write(src)
	return out.Bytes()
}
