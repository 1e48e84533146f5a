// Package logs renders what the hooks found as the markdown the Node
// session-hooks script wrote (the layout existing readers parse), fits it
// into the size Claude Code accepts, and writes log files atomically into
// .claude/logs/ without following links out of it.
package logs

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/session-hooks/session-hooks/internal/sanitize"
)

// Field is one row of the metadata table at the top of a log.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Plain bool   `json:"-"` // shown as is, not as code (Environment)
}

// Command is one probe's outcome under "## Commands".
type Command struct {
	Command  string        `json:"command"`
	Output   []string      `json:"output"`
	Err      string        `json:"error,omitempty"` // set when the probe failed
	Note     string        `json:"note,omitempty"`  // what a partial result left out
	Duration time.Duration `json:"duration_ns"`
	// Totals: the last line sums up the others (a diff stat's "N files
	// changed…") and stays when the list is cut.
	Totals bool `json:"-"`
}

// Report is a session-init or session-end log.
type Report struct {
	Title    string        `json:"title"`
	Meta     []Field       `json:"meta"`
	Notes    []string      `json:"notes,omitempty"` // one line each: what was skipped and why
	Commands []Command     `json:"commands"`
	Total    time.Duration `json:"duration_ns"`
	// Extra is appended after the summary line (the compact recovery part).
	Extra string `json:"extra_markdown,omitempty"`
}

// Limits bound how much of each command's output is shown.
type Limits struct {
	MaxLines   int // lines of output per command before "… and N more"
	MaxLineLen int // characters per line before "…"
}

// LogLimits keep a log file complete for any realistic repository while
// bounding it for a pathological one.
var LogLimits = Limits{MaxLines: 2000, MaxLineLen: 1000}

// failExit is reported for a probe that failed: git's exit code for fatal
// errors, so readers of the Node logs' "FAIL (exit N)" keep working.
const failExit = 128

// Render lays the report out as the Node script did.
func (r Report) Render(l Limits) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n| Field | Value |\n|-------|-------|\n", r.Title)
	for _, f := range r.Meta {
		v := Code(f.Value)
		if f.Plain {
			v = f.Value
		}
		fmt.Fprintf(&b, "| **%s** | %s |\n", f.Name, strings.ReplaceAll(v, "|", `\|`))
	}
	b.WriteString("\n")
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "**Note:** %s\n\n", oneLine(n, l.MaxLineLen))
	}
	b.WriteString("---\n\n## Commands\n\n")
	ok := 0
	for i, c := range r.Commands {
		status := "OK"
		output := c.Output
		if c.Err != "" {
			status = fmt.Sprintf("FAIL (exit %d)", failExit)
			output = []string{c.Err}
		} else {
			ok++
		}
		fmt.Fprintf(&b, "**%d. %s** — %s, %s\n", i+1, Code(c.Command), status, Duration(c.Duration))
		if len(output) > 0 {
			b.WriteString(Fence(shortenCommand(output, c.Totals && c.Err == "", l)))
		}
		if c.Note != "" {
			fmt.Fprintf(&b, "_%s_\n", oneLine(c.Note, l.MaxLineLen))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "**%d/%d succeeded** in %s\n\n", ok, len(r.Commands), Duration(r.Total))
	b.WriteString(r.Extra)
	return b.String()
}

// Fit renders with ever fewer lines per list until the text fits within
// budget characters, and cuts it as a last resort.
func Fit(render func(Limits) string, budget int) string {
	l := Limits{MaxLines: 200, MaxLineLen: 300}
	for {
		s := render(l)
		if Len(s) <= budget {
			return s
		}
		if l.MaxLines == 0 {
			return Cut(s, budget)
		}
		l.MaxLines /= 2
	}
}

// Len counts characters as Claude Code does (JavaScript string length,
// UTF-16 code units), so emoji and other astral characters count twice.
func Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Cut shortens s to at most budget characters at a line boundary and says
// so on its last line.
func Cut(s string, budget int) string {
	const marker = "\n… (output cut to fit the size Claude Code accepts)\n"
	if Len(s) <= budget {
		return s
	}
	keep := budget - Len(marker)
	n, end := 0, 0
	for i, r := range s {
		n += utf16.RuneLen(r)
		if n > keep {
			break
		}
		if r == '\n' {
			end = i
		}
	}
	return s[:end] + marker
}

// shortenCommand is shorten, keeping a totals line last.
func shortenCommand(lines []string, totals bool, l Limits) []string {
	if !totals || len(lines) <= l.MaxLines {
		return shorten(lines, l)
	}
	last := len(lines) - 1
	return append(shorten(lines[:last], l), oneLine(lines[last], l.MaxLineLen))
}

func shorten(lines []string, l Limits) []string {
	var out []string
	for i, line := range lines {
		if i == l.MaxLines {
			out = append(out, fmt.Sprintf("… and %d more", len(lines)-i))
			break
		}
		out = append(out, oneLine(line, l.MaxLineLen))
	}
	return out
}

// oneLine cuts a line to n characters.
func oneLine(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	// Redacted before it is cut: a cut through a token would leave a
	// part no pattern knows.
	if s = sanitize.Clean(s); utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// Duration prints as the Node script did: "9ms" under a second, "1.2s" above.
func Duration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// Code is an inline code span that no backtick in s can close early.
func Code(s string) string {
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// Fence is a fenced "text" block that no line of output can close early.
func Fence(lines []string) string {
	body := strings.Join(lines, "\n")
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	return fence + "text\n" + body + "\n" + fence + "\n"
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// LogBudget caps a log file: fuller than stdout, bounded all the same.
// It counts characters, as every budget does.
const LogBudget = 256 << 10

// LogReadBytes is what reading back a file of LogBudget characters takes
// in bytes: up to three per character in UTF-8 (a task list in Chinese
// is), and the seal.
const LogReadBytes = 3*LogBudget + 4<<10
