package gitdiag

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/diff"
)

// Upstream is what the branch is compared with: its configured upstream,
// else origin/HEAD.
type Upstream struct {
	Name string // as git prints it: origin/main
	Hash plumbing.Hash
}

// Upstream finds the comparison base, or says why there is none.
func (r *Repo) Upstream(head Head) (Upstream, error) {
	if head.Branch != "" {
		remote := r.cfg.getSub("branch", head.Branch, "remote")
		merge := r.cfg.getSub("branch", head.Branch, "merge")
		if remote != "" && merge != "" {
			full, short := merge, strings.TrimPrefix(merge, "refs/heads/")
			if remote != "." {
				full, short = "refs/remotes/"+remote+"/"+short, remote+"/"+short
			}
			if h, err := r.resolveRef(full); err == nil {
				return Upstream{Name: short, Hash: h}, nil
			}
		}
	}
	b, err := readFileString(r.CommonDir, "refs/remotes/origin/HEAD")
	target, ok := strings.CutPrefix(strings.TrimSpace(b), "ref: ")
	if err == nil && ok {
		if h, err := r.resolveRef(target); err == nil {
			return Upstream{Name: strings.TrimPrefix(target, "refs/remotes/"), Hash: h}, nil
		}
	}
	if head.Branch != "" {
		return Upstream{}, fmt.Errorf("branch %s has no upstream and origin/HEAD is not set", head.Branch)
	}
	return Upstream{}, fmt.Errorf("HEAD is detached and origin/HEAD is not set")
}

// FileStat is one file of a diff stat.
type FileStat struct {
	Name             string
	Added, Deleted   int
	Binary           bool
	OldSize, NewSize int64
}

// DiffStat returns `git diff --stat up...HEAD`: the changes on HEAD since
// its merge base with up.
func (r *Repo) DiffStat(ctx context.Context, head Head, up Upstream) ([]FileStat, error) {
	g, err := r.objects()
	if err != nil {
		return nil, err
	}
	hc, err := g.CommitObject(head.Hash)
	if err != nil {
		return nil, err
	}
	uc, err := g.CommitObject(up.Hash)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", up.Name, err)
	}
	bases, err := hc.MergeBase(uc)
	if err != nil {
		return nil, err
	}
	if len(bases) == 0 {
		return nil, fmt.Errorf("fatal: %s...HEAD: no merge base", up.Name)
	}
	from, err := bases[0].Tree()
	if err != nil {
		return nil, err
	}
	to, err := hc.Tree()
	if err != nil {
		return nil, err
	}
	patch, err := from.PatchContext(ctx, to)
	if err != nil {
		return nil, err
	}
	var stats []FileStat
	for _, fp := range patch.FilePatches() {
		stats = append(stats, r.fileStat(fp))
	}
	sort.Slice(stats, func(i, j int) bool { return stats[i].Name < stats[j].Name })
	return stats, nil
}

func (r *Repo) fileStat(fp diff.FilePatch) FileStat {
	from, to := fp.Files()
	var s FileStat
	if to != nil {
		s.Name = to.Path()
	} else {
		s.Name = from.Path()
	}
	if fp.IsBinary() {
		s.Binary = true
		s.OldSize, s.NewSize = r.blobSize(from), r.blobSize(to)
		return s
	}
	for _, c := range fp.Chunks() {
		n := strings.Count(c.Content(), "\n")
		if c.Content() != "" && !strings.HasSuffix(c.Content(), "\n") {
			n++
		}
		switch c.Type() {
		case diff.Add:
			s.Added += n
		case diff.Delete:
			s.Deleted += n
		}
	}
	return s
}

func (r *Repo) blobSize(f diff.File) int64 {
	if f == nil {
		return 0
	}
	b, err := r.gogit.BlobObject(f.Hash())
	if err != nil {
		return 0
	}
	return b.Size
}

// FormatStat lays out stats as git's show_stats does for an 80-column,
// non-terminal output, summary line last.
func FormatStat(stats []FileStat) []string {
	if len(stats) == 0 {
		return nil
	}
	const width = 80
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	for _, s := range stats {
		if w := nameWidth(quotePath(s.Name, false)); w > maxLen {
			maxLen = w
		}
		if s.Binary {
			if w := 14 + decimalWidth(int(s.NewSize)) + decimalWidth(int(s.OldSize)); w > binWidth {
				binWidth = w
			}
			numberWidth = 3
			continue
		}
		if c := s.Added + s.Deleted; c > maxChange {
			maxChange = c
		}
	}
	if w := decimalWidth(maxChange); w > numberWidth {
		numberWidth = w
	}
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameW := maxLen
	if nameW+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = width*3/8 - numberWidth - 6
			if graphWidth < 6 {
				graphWidth = 6
			}
		}
		if nameW > width-numberWidth-6-graphWidth {
			nameW = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameW
		}
	}
	var out []string
	insertions, deletions := 0, 0
	for _, s := range stats {
		name := fitName(quotePath(s.Name, false), nameW)
		if s.Binary {
			out = append(out, fmt.Sprintf(" %s | %*s %d -> %d bytes", name, numberWidth, "Bin", s.OldSize, s.NewSize))
			continue
		}
		insertions += s.Added
		deletions += s.Deleted
		add, del := s.Added, s.Deleted
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		sep := ""
		if s.Added+s.Deleted > 0 {
			sep = " "
		}
		out = append(out, fmt.Sprintf(" %s | %*d%s%s%s", name, numberWidth, s.Added+s.Deleted, sep,
			strings.Repeat("+", add), strings.Repeat("-", del)))
	}
	return append(out, statSummary(len(stats), insertions, deletions))
}

// fitName pads a name to w columns, or keeps its tail after "..." (cut at a
// slash when there is one), as git does.
func fitName(name string, w int) string {
	prefix, n := "", nameWidth(name)
	if w < n {
		prefix = "..."
		keep := w - 3
		if keep < 0 {
			keep = 0
		}
		for nameWidth(name) > keep {
			_, size := utf8.DecodeRuneInString(name)
			name = name[size:]
		}
		if i := strings.IndexByte(name, '/'); i >= 0 {
			name = name[i:]
		}
		w = keep
	}
	pad := w - nameWidth(name)
	if pad < 0 {
		pad = 0
	}
	return prefix + name + strings.Repeat(" ", pad)
}

func nameWidth(s string) int { return utf8.RuneCountInString(s) }

func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

func decimalWidth(n int) int {
	w := 1
	for ; n >= 10; n /= 10 {
		w++
	}
	return w
}

func statSummary(files, ins, del int) string {
	s := fmt.Sprintf(" %d file%s changed", files, plural(files))
	if ins > 0 || del == 0 {
		s += fmt.Sprintf(", %d insertion%s(+)", ins, plural(ins))
	}
	if del > 0 || ins == 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", del, plural(del))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
