//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// The claims audit: every Claude Code session of the suite is audited when
// its test ends. For each request the fake API recorded, what session-hooks
// contributed is extracted and each claim in it is checked against the
// truth when the request that first carried it arrived (git's status and
// standing, read at that moment, and the prompts the test typed): every
// file said still uncommitted is in git status, every file said no longer
// uncommitted is not, ahead and behind are git's, a request quoted as the
// user's is one the user typed, no line of ours comes twice in a request,
// and a brief never comes with nothing under its heading.

// truth is what was true when a request arrived.
type truth struct {
	Status          []string `json:"status"` // git status --porcelain
	Ahead, Behind   int
	HasUpstream     bool
	Prompts         []string `json:"prompts"`
	StatusReadError string   `json:"status_error"`
}

// readTruth reads git's status and standing in dir, without taking any
// lock the client's own git runs could meet.
func readTruth(dir string, prompts []string) []byte {
	t := truth{Prompts: prompts}
	git := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		return string(out), err
	}
	if out, err := git("status", "--porcelain", "--untracked-files=all"); err != nil {
		t.StatusReadError = err.Error()
	} else {
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if l != "" {
				t.Status = append(t.Status, l)
			}
		}
	}
	if out, err := git("rev-list", "--left-right", "--count", "HEAD...@{upstream}"); err == nil {
		if f := strings.Fields(out); len(f) == 2 {
			t.Ahead, _ = strconv.Atoi(f[0])
			t.Behind, _ = strconv.Atoi(f[1])
			t.HasUpstream = true
		}
	}
	b, _ := json.Marshal(t)
	return b
}

var (
	standingClaim = regexp.MustCompile("(\\d+) commits? ahead and (\\d+) commits? behind `")
	upToDateClaim = regexp.MustCompile("Up to date with `")
	stillClaim    = regexp.MustCompile("still uncommitted: ([^\n]*)")
	undoneClaim   = regexp.MustCompile("committed or undone since: ([^;\n]*)")
	cleanClaim    = regexp.MustCompile("(?m)^- no longer uncommitted: (.*)$")
	codeSpan      = regexp.MustCompile("`([^`]+)`")
	writtenList   = regexp.MustCompile("(?s)\\*\\*Files written since the previous compaction:\\*\\*\n\n(.*?)\n\n")
	thenList      = regexp.MustCompile("Uncommitted then: ([^\n]*)")
	requestClaim  = regexp.MustCompile("(?:Its last request:|\\*\\*The user's last request, before the compaction:\\*\\*)\n\n> ([^\n]*)")
)

// audit checks every request of the session s; it runs when s's test ends.
func (s *session) audit() {
	t := s.t
	checked := map[string]bool{}
	for i, r := range s.api.Requests() {
		if r.Kind() != "main" || r.Truth == nil {
			continue
		}
		var now truth
		if json.Unmarshal(r.Truth, &now) != nil {
			continue
		}
		text := messagesText(string(r.Body))
		segs := ourSegments(text)
		auditOnce(t, i, segs)
		for _, seg := range segs {
			if checked[seg] {
				continue // checked against the truth when it first came
			}
			checked[seg] = true
			auditClaims(t, i, seg, now)
		}
	}
}

// auditOnce: no line of ours twice in one request, and no fact twice in
// two versions (the standing said shorter, then longer).
func auditOnce(t *testing.T, i int, segs []string) {
	t.Helper()
	if n := len(standingClaim.FindAllString(strings.Join(segs, "\n"), -1)); n > 1 {
		t.Errorf("audit: request %d says where the branch stands %d times:\n%s", i, n, strings.Join(segs, "\n=====\n"))
	}
	seen := map[string]int{}
	for _, seg := range segs {
		for _, line := range strings.Split(seg, "\n") {
			if line = strings.TrimSpace(line); len(line) >= 8 && !strings.HasPrefix(line, "```") {
				seen[line]++
			}
		}
	}
	for line, n := range seen {
		if n > 1 {
			t.Errorf("audit: request %d holds our line %d times: %q", i, n, line)
		}
	}
}

// auditClaims checks one output of ours against the truth when it came.
func auditClaims(t *testing.T, i int, seg string, now truth) {
	t.Helper()
	if strings.HasPrefix(strings.TrimSpace(seg), strings.TrimSpace(briefHeader)) && strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(seg), strings.TrimSpace(briefHeader))) == "" {
		t.Errorf("audit: request %d: a brief with nothing under its heading", i)
	}
	if m := standingClaim.FindStringSubmatch(seg); m != nil && now.HasUpstream {
		if a, b := atoi(m[1]), atoi(m[2]); a != now.Ahead || b != now.Behind {
			t.Errorf("audit: request %d says %d ahead and %d behind; git says %d and %d", i, a, b, now.Ahead, now.Behind)
		}
	}
	if upToDateClaim.MatchString(seg) && now.HasUpstream && (now.Ahead != 0 || now.Behind != 0) {
		t.Errorf("audit: request %d says up to date; git says %d ahead and %d behind", i, now.Ahead, now.Behind)
	}
	if now.StatusReadError == "" {
		for _, m := range stillClaim.FindAllStringSubmatch(seg, -1) {
			for _, c := range codeSpan.FindAllStringSubmatch(m[1], -1) {
				if p := statusPath(c[1]); p != "" && !dirty(now.Status, p) {
					t.Errorf("audit: request %d says %q is still uncommitted; git status: %q", i, p, now.Status)
				}
			}
		}
		for _, m := range cleanClaim.FindAllStringSubmatch(seg, -1) {
			for _, c := range codeSpan.FindAllStringSubmatch(m[1], -1) {
				if dirty(now.Status, c[1]) {
					t.Errorf("audit: request %d says %q is no longer uncommitted; git status: %q", i, c[1], now.Status)
				}
			}
		}
		for _, m := range undoneClaim.FindAllStringSubmatch(seg, -1) {
			for _, c := range codeSpan.FindAllStringSubmatch(m[1], -1) {
				if p := statusPath(c[1]); dirty(now.Status, p) {
					t.Errorf("audit: request %d says %q was committed or undone; git status: %q", i, p, now.Status)
				}
			}
		}
	}
	// A file the recovery lists as written, and that git shows uncommitted,
	// must be among what it says was uncommitted: left out, it reads as
	// committed.
	if w := writtenList.FindStringSubmatch(seg); w != nil && now.StatusReadError == "" {
		then := ""
		if m := thenList.FindStringSubmatch(seg); m != nil {
			then = m[1]
		}
		for _, c := range codeSpan.FindAllStringSubmatch(w[1], -1) {
			if rel := relativeTo(c[1], now.Status); rel != "" && !strings.Contains(then, "`"+rel+"`") {
				t.Errorf("audit: request %d lists %q as written and git shows it uncommitted, but the recovery does not say it was", i, rel)
			}
		}
	}
	for _, m := range requestClaim.FindAllStringSubmatch(seg, -1) {
		quoted := strings.TrimSpace(m[1])
		typed := false
		for _, p := range now.Prompts {
			first, _, _ := strings.Cut(p, "\n")
			typed = typed || strings.TrimSpace(first) == quoted
		}
		if !typed {
			t.Errorf("audit: request %d quotes %q as the user's request; the user typed %q", i, quoted, now.Prompts)
		}
	}
}

// statusPath is the path of a `git status --short` line as the brief
// quotes it (`?? notes.txt`, ` M README.md`), also when the quote lost the
// blank before a one-letter code (`M README.md`): such a quote is read for
// the file it names, not for where its columns should be.
func statusPath(line string) string {
	switch {
	case len(line) > 3 && line[2] == ' ':
		return line[3:]
	case len(line) > 2 && line[1] == ' ':
		return line[2:]
	}
	return ""
}

// dirty says whether git's status lists path, or a directory holding it.
func dirty(status []string, path string) bool {
	for _, l := range status {
		p := statusPath(l)
		if p == path || strings.HasSuffix(path, "/") && strings.HasPrefix(p, path) {
			return true
		}
	}
	return false
}

// relativeTo is the status path a written file (shown absolute or
// relative) stands for, when git shows it uncommitted; "" otherwise.
func relativeTo(file string, status []string) string {
	for _, l := range status {
		if p := statusPath(l); p != "" && (file == p || strings.HasSuffix(file, "/"+p)) {
			return p
		}
	}
	return ""
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// auditBodies audits the requests of a client other than Claude Code (its
// fake server's bodies, and the truth at each): what session-hooks
// contributed is every text of the body that holds one of our headings.
func auditBodies(t *testing.T, bodies, truths [][]byte) {
	t.Helper()
	checked := map[string]bool{}
	for i, body := range bodies {
		var now truth
		if i >= len(truths) || json.Unmarshal(truths[i], &now) != nil {
			continue
		}
		segs := oursIn(body)
		auditOnce(t, i, segs)
		for _, seg := range segs {
			if !checked[seg] {
				checked[seg] = true
				auditClaims(t, i, seg, now)
			}
		}
	}
}

// oursIn collects the strings of a JSON body that hold an output of ours.
func oursIn(body []byte) []string {
	var out []string
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		switch {
		case v.IsObject() || v.IsArray():
			v.ForEach(func(_, x gjson.Result) bool { walk(x); return true })
		case v.Type == gjson.String && (strings.Contains(v.Str, "## session-hooks") || strings.Contains(v.Str, "(session-hooks recovery ")):
			out = append(out, unwrapped(v.Str)...)
		}
	}
	walk(gjson.ParseBytes(body))
	return out
}

// clientWrappers are the tags a client puts a hook's context in inside a
// text of its own (Qwen Code: in the system prompt): what is inside is
// ours, the rest the client's.
var clientWrappers = [][2]string{{"<qwen:session-start-context", "</qwen:session-start-context>"}}

// unwrapped is the text of ours in s: what the client's wrappers hold,
// or s whole when it has none.
func unwrapped(s string) []string {
	var out []string
	for _, w := range clientWrappers {
		rest := s
		for {
			i := strings.Index(rest, w[0])
			if i < 0 {
				break
			}
			rest = rest[i:]
			j := strings.Index(rest, w[1])
			if j < 0 {
				break
			}
			out = append(out, rest[strings.IndexByte(rest, '>')+1:j])
			rest = rest[j+len(w[1]):]
		}
	}
	if out == nil {
		return []string{s}
	}
	return out
}
