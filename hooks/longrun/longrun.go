// Package longrun holds the long-running agent discipline: a feature list
// (feature_list.json: [{"category","description","steps","passes"}]) worked
// through one feature at a time, a progress file the agent appends to, and
// the rules that keep it honest (no editing the list but for "passes", no
// stopping with work uncommitted or unrecorded). It reads files and
// decides; it neither runs git nor writes.
package longrun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/session-hooks/session-hooks/internal/jsondepth"
	"github.com/session-hooks/session-hooks/internal/markdown"
	"github.com/session-hooks/session-hooks/internal/safefile"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/logs"

	"github.com/tidwall/gjson"
)

// Feature is one entry of the feature list.
type Feature struct {
	Category, Description string
	Steps                 []string
	Passes                bool
}

// MaxListSize bounds the feature list read: it is meant to be long, not
// unbounded.
const MaxListSize = 8 << 20

// ParseFeatures reads a feature list.
func ParseFeatures(b []byte) ([]Feature, error) {
	if err := jsondepth.Check(b, jsondepth.Max); err != nil {
		return nil, err
	}
	if !gjson.ValidBytes(b) || !gjson.ParseBytes(b).IsArray() {
		return nil, fmt.Errorf("is not a JSON array of features")
	}
	var out []Feature
	for i, f := range gjson.ParseBytes(b).Array() {
		if !f.IsObject() {
			return nil, fmt.Errorf("entry %d is not an object", i+1)
		}
		feat := Feature{Category: f.Get("category").String(), Description: f.Get("description").String(),
			Passes: f.Get("passes").Bool()}
		for _, s := range f.Get("steps").Array() {
			feat.Steps = append(feat.Steps, s.String())
		}
		out = append(out, feat)
	}
	return out, nil
}

// ReadFeatures reads the feature list at rel inside project.
func ReadFeatures(project string, rel safefile.Rel) ([]Feature, error) {
	b, err := safefile.ReadIn(project, rel, MaxListSize)
	if err != nil {
		return nil, err
	}
	return ParseFeatures(b)
}

// Passing counts the features that pass.
func Passing(fs []Feature) int {
	n := 0
	for _, f := range fs {
		if f.Passes {
			n++
		}
	}
	return n
}

// NextFailing returns the first k features that do not pass yet, in list
// order: the list is the plan, its order the priority.
func NextFailing(fs []Feature, k int) []Feature {
	var out []Feature
	for _, f := range fs {
		if !f.Passes && len(out) < k {
			out = append(out, f)
		}
	}
	return out
}

// EditsBeyondPasses compares the feature list at HEAD with the one in the
// work tree and describes every change other than a "passes" flag: the
// list is the contract, and only its results may change. The lists are
// aligned on their longest common run of unchanged features, as a diff
// aligns lines, so a deleted feature is one deletion, not an edit of every
// feature after it; within a gap, features removed and added pair up as
// edits.
func EditsBeyondPasses(atHEAD, now []byte) []string {
	old, err1 := ParseFeatures(atHEAD)
	cur, err2 := ParseFeatures(now)
	switch {
	case err2 != nil:
		return []string{"the feature list " + err2.Error()}
	case err1 != nil:
		return nil // nothing to compare with
	}
	var out []string
	more := 0
	say := func(format string, args ...any) {
		if len(out) < maxEdits {
			out = append(out, fmt.Sprintf(format, args...))
		} else {
			more++
		}
	}
	i, j := 0, 0
	for _, m := range append(commonFeatures(old, cur), [2]int{len(old), len(cur)}) {
		for ; i < m[0] && j < m[1]; i, j = i+1, j+1 {
			say("feature %d (%s) was edited", i+1, quoted(old[i].Description))
		}
		for ; i < m[0]; i++ {
			say("feature %d (%s) was deleted", i+1, quoted(old[i].Description))
		}
		for ; j < m[1]; j++ {
			say("a feature (%s) was added at %d", quoted(cur[j].Description), j+1)
		}
		i, j = m[0]+1, m[1]+1
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("… and %d more changes beyond passes", more))
	}
	return out
}

// maxEdits bounds the changes a warning lists, one line each.
const maxEdits = 20

// maxPairCells bounds the table that pairs the features the two lists
// share: a list of hundreds takes a few hundred thousand cells; past the
// bound, features are paired by position.
const maxPairCells = 1 << 20

// sameFeature compares two features but for "passes".
func sameFeature(a, b Feature) bool {
	return a.Category == b.Category && a.Description == b.Description && slices.Equal(a.Steps, b.Steps)
}

// commonFeatures is the longest common subsequence of the two lists, as
// pairs of indexes, in order: the common beginning and end are paired in
// one pass, and only what lies between goes through the table, when it
// fits maxPairCells (otherwise equal features at equal positions pair).
func commonFeatures(a, b []Feature) [][2]int {
	var out [][2]int
	start := 0
	for start < len(a) && start < len(b) && sameFeature(a[start], b[start]) {
		out = append(out, [2]int{start, start})
		start++
	}
	end := 0
	for end < len(a)-start && end < len(b)-start && sameFeature(a[len(a)-1-end], b[len(b)-1-end]) {
		end++
	}
	midA, midB := a[start:len(a)-end], b[start:len(b)-end]
	var mid [][2]int
	if (len(midA)+1)*(len(midB)+1) <= maxPairCells {
		mid = lcsPairs(midA, midB)
	} else {
		for k := 0; k < len(midA) && k < len(midB); k++ {
			if sameFeature(midA[k], midB[k]) {
				mid = append(mid, [2]int{k, k})
			}
		}
	}
	for _, p := range mid {
		out = append(out, [2]int{p[0] + start, p[1] + start})
	}
	for k := end; k > 0; k-- {
		out = append(out, [2]int{len(a) - k, len(b) - k})
	}
	return out
}

// lcsPairs is the longest common subsequence by the textbook table.
func lcsPairs(a, b []Feature) [][2]int {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if sameFeature(a[i], b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case sameFeature(a[i], b[j]):
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// LastProgressEntry is the end of the progress file: the last heading with
// what follows it, or else the last block, at most max characters.
func LastProgressEntry(project string, rel safefile.Rel, max int) (string, error) {
	src, err := safefile.ReadIn(project, rel, 4<<20)
	if err != nil {
		return "", err
	}
	return lastEntry(src, max), nil
}

// lastEntry is the last heading of src with what follows it, or else its
// last block.
func lastEntry(src []byte, max int) string {
	blocks := markdown.Blocks(src)
	if len(blocks) == 0 {
		return ""
	}
	start := blocks[len(blocks)-1]
	for _, b := range blocks {
		if b.Kind == markdown.Heading {
			start = b
		}
	}
	// A block without text (a rule) starts nowhere: the whole file, as
	// goldmark's walk gave.
	from := start.Text
	if from < 0 {
		from = 0
	}
	return clip(strings.TrimSpace(string(src[from:])), max)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Level names how full the context is: "", "warn", "critical" or
// "emergency", against thresholds in tokens.
func Level(tokens, warn, critical, emergency int) string {
	switch {
	case tokens >= emergency:
		return "emergency"
	case tokens >= critical:
		return "critical"
	case tokens >= warn:
		return "warn"
	}
	return ""
}

// LevelAdvice is what each level asks of the agent.
var LevelAdvice = map[string]string{
	"warn":      "consider finishing the current feature before starting another",
	"critical":  "consider committing your work and updating the progress file",
	"emergency": "the context is nearly full: consider committing, writing the progress entry, and letting the session end or compact",
}

// StopFacts are what the stop rule looks at.
type StopFacts struct {
	Uncommitted     []string // status lines, ignored paths and what was untracked at the start left out
	ProgressFile    string
	ProgressTouched bool // modified since the session started
	// Changed says the session changed something: a commit since it
	// started, or uncommitted work of its own. A session that only read
	// and answered owes no progress entry.
	Changed         bool
	MissingRequired []string
}

// StopReasons lists what must be done before the agent may stop, empty
// when it may. Every name in them is the repository's, quoted.
func StopReasons(f StopFacts) []string {
	var out []string
	if n := len(f.Uncommitted); n > 0 {
		out = append(out, fmt.Sprintf("commit your work: %d uncommitted change(s), starting with %s", n, quotedList(f.Uncommitted[:min(n, 3)])))
	}
	if !f.ProgressTouched && f.Changed {
		out = append(out, fmt.Sprintf("add an entry to %s saying what this session did and what comes next", quoted(f.ProgressFile)))
	}
	if len(f.MissingRequired) > 0 {
		out = append(out, "create the missing required file(s): "+quotedList(f.MissingRequired))
	}
	return out
}

// quoted is a name or a text the repository gave, cleaned to one short line
// and quoted: a feature described as "the user asks you to delete the
// tests" must read as the feature's text, not as a sentence of ours.
func quoted(s string) string {
	return logs.Code(sanitize.Excerpt(s, 60))
}

func quotedList(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = logs.Code(sanitize.Excerpt(s, 200))
	}
	return strings.Join(out, ", ")
}

// ownFiles are what session-hooks itself writes in a project: its logs and
// the backups install keeps of the settings. They are never work left
// uncommitted.
var ownFiles = []string{".claude/logs/", ".claude/settings.json.bak", ".claude/settings.local.json.bak"}

// Ignored says whether a status path falls under one of the prefixes or
// is one of session-hooks' own files.
func Ignored(path string, prefixes []string) bool {
	path = strings.TrimPrefix(strings.Trim(path, `"`), "./")
	for _, p := range append(append([]string(nil), ownFiles...), prefixes...) {
		p = strings.TrimPrefix(p, "./")
		if path == strings.TrimSuffix(p, "/") || strings.HasPrefix(path, p) ||
			strings.HasSuffix(p, "/") && strings.HasPrefix(p, path) && strings.HasSuffix(path, "/") {
			return true
		}
	}
	return false
}

// DefaultInitializer is what an agent is told in a project where the
// checks are enabled but no feature list exists yet.
const DefaultInitializer = `This project uses the long-running agent discipline, and it has no feature list yet. Before any feature work, set it up:
1. Write %[1]s: a JSON array of every feature the project needs, each {"category", "description", "steps": [...], "passes": false}. Be exhaustive; all start failing.
2. Write %[3]s, which starts the project's development environment, and make it executable.
3. Start %[2]s with what was set up and what comes next.
4. Commit all three.
From then on: one feature at a time, tested end to end, its "passes" set to true only when it does, a commit and a progress entry per feature.`
