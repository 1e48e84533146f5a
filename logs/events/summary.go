package events

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/session-hooks/session-hooks/hooks/facts"

	"github.com/session-hooks/session-hooks/logs"
)

// Summary is one session, as its events tell it.
type Summary struct {
	SchemaVersion int       `json:"schema_version"`
	Session       string    `json:"session_id"`
	First, Last   time.Time `json:"-"`
	FirstTime     string    `json:"first_event"`
	LastTime      string    `json:"last_event"`
	Models        []string  `json:"models,omitempty"` // in the order they appeared
	Compactions   int       `json:"compactions"`
	Triggers      []string  `json:"compaction_triggers,omitempty"`
	// Lost is, per compaction PostCompact recorded, the snapshot facts its
	// summary did not mention.
	Lost    []CompactionLoss `json:"lost_in_compaction,omitempty"`
	Context *int             `json:"latest_context_tokens,omitempty"`
	// Receipts say what became of each recovery injected after a compaction.
	Receipts []Receipt `json:"recovery_receipts,omitempty"`
	Blocked  int       `json:"stops_blocked"`
	Errors   []string  `json:"errors,omitempty"`
	Events   []Event   `json:"events"`
	// Ignored counts the log's lines this user's session-hooks did not
	// write (no valid seal), left out of the summary.
	Ignored int `json:"lines_ignored"`
}

// CompactionLoss is one compaction's "lost in compaction" record.
type CompactionLoss struct {
	Time    string   `json:"time"`
	Trigger string   `json:"trigger"`
	Lost    []string `json:"lost"`
}

// LastSession is the session of the newest event that has one.
func LastSession(all []Event) string {
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Session != "" {
			return all[i].Session
		}
	}
	return ""
}

// Summarize gathers one session's events, or says there are none.
func Summarize(all []Event, session string) (Summary, error) {
	s := Summary{Session: session}
	for _, e := range all {
		if e.Session == session {
			s.Events = append(s.Events, e)
		}
	}
	if len(s.Events) == 0 {
		return s, fmt.Errorf("no events of session %q in %s", session, File)
	}
	sort.SliceStable(s.Events, func(i, j int) bool { return s.Events[i].Time.Before(s.Events[j].Time) })
	s.First, s.Last = s.Events[0].Time, s.Events[len(s.Events)-1].Time
	s.FirstTime, s.LastTime = s.First.Format(time.RFC3339), s.Last.Format(time.RFC3339)
	for _, e := range s.Events {
		if e.Model != "" && (len(s.Models) == 0 || s.Models[len(s.Models)-1] != e.Model) {
			s.Models = append(s.Models, e.Model)
		}
		if e.Context != nil {
			s.Context = e.Context
		}
		if e.IsCompaction() {
			s.Compactions++
			s.Triggers = append(s.Triggers, orDash(e.Trigger))
			// The size read before a compaction is not the context's
			// after it: unknown until a later run reads it.
			s.Context = nil
		}
		if e.Receipt != nil {
			s.Receipts = append(s.Receipts, *e.Receipt)
		}
		if c := e.Compaction; c != nil {
			s.Lost = append(s.Lost, CompactionLoss{Time: e.Time.Format(time.RFC3339), Trigger: c.Trigger, Lost: c.Lost})
		}
		if e.Subcommand == "stop" && e.Decision == "block" {
			s.Blocked++
		}
		for _, err := range e.Errors {
			s.Errors = append(s.Errors, fmt.Sprintf("%s %s: %s: %s", e.Time.Format("15:04:05"), e.Subcommand, err.Type, err.Message))
		}
	}
	return s, nil
}

// IsCompaction says whether the run marks a compaction (Compacted).
func (e Event) IsCompaction() bool {
	if e.Compacted != nil {
		return *e.Compacted
	}
	return e.Subcommand == "pre-compact"
}

// Markdown renders the summary for people.
func (s Summary) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Session %s\n\n| Field | Value |\n|-------|-------|\n", s.Session)
	row := func(k, v string) { fmt.Fprintf(&b, "| **%s** | %s |\n", k, v) }
	row("First event", "`"+s.FirstTime+"`")
	row("Last event", fmt.Sprintf("`%s` (%s later)", s.LastTime, s.Last.Sub(s.First).Round(time.Second)))
	row("Events", fmt.Sprint(len(s.Events)))
	if len(s.Models) > 0 {
		row("Model", "`"+strings.Join(s.Models, "` → `")+"`")
	}
	row("Compactions", strings.TrimSpace(fmt.Sprintf("%d %s", s.Compactions, paren(strings.Join(s.Triggers, ", ")))))
	if s.Context != nil {
		row("Latest context", fmt.Sprintf("%d tokens", *s.Context))
	}
	if len(s.Receipts) > 0 {
		var rs []string
		for _, r := range s.Receipts {
			rs = append(rs, r.Status)
		}
		row("Recoveries", strings.Join(rs, ", "))
	}
	row("Stops blocked", fmt.Sprint(s.Blocked))
	row("Errors", fmt.Sprint(len(s.Errors)))
	b.WriteString("\n## Timeline\n\n| Time | Hook | Source / trigger / reason | Took | Printed | Decision | Slowest probe |\n|---|---|---|---|---|---|---|\n")
	for _, e := range s.Events {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d B%s | %s | %s |\n", e.Time.Format("15:04:05"), e.Subcommand,
			orDash(strings.Trim(e.Source+e.Trigger+e.Reason, " ")), ms(e.DurationMS), e.Bytes, cut(e.Truncated),
			orDash(e.Decision), slowest(e.Probes))
	}
	for _, e := range s.Events {
		if e.Injected == "" {
			continue
		}
		if !strings.Contains(b.String(), "\n## What the model was given\n") {
			b.WriteString("\n## What the model was given\n")
		}
		fmt.Fprintf(&b, "\n### %s %s %s\n\n%s", e.Time.Format("15:04:05"), e.Subcommand, paren(strings.Trim(e.Source+e.Trigger, " ")), logs.Quote(e.Injected))
	}
	if len(s.Lost) > 0 {
		b.WriteString("\n## Lost in compaction\n\nWhat the compaction summary did not mention of the snapshot taken before it:\n\n")
		for _, l := range s.Lost {
			what := "nothing"
			if len(l.Lost) > 0 {
				what = strings.Join(l.Lost, "; ")
			}
			fmt.Fprintf(&b, "- %s (%s): %s\n", l.Time, l.Trigger, what)
		}
	}
	if len(s.Errors) > 0 {
		b.WriteString("\n## Errors\n\n")
		for _, e := range s.Errors {
			fmt.Fprintf(&b, "- %s\n", e)
		}
	}
	if s.Ignored > 0 {
		fmt.Fprintf(&b, "\n%d line(s) of %s were ignored: this user's session-hooks did not write them (no valid seal).\n", s.Ignored, File)
	}
	return b.String()
}

func slowest(ps []Probe) string {
	if len(ps) == 0 {
		return "-"
	}
	best := ps[0]
	for _, p := range ps[1:] {
		if p.DurationMS > best.DurationMS {
			best = p
		}
	}
	return fmt.Sprintf("`%s` %s", best.Command, ms(best.DurationMS))
}

func ms(v float64) string {
	if v < 1000 {
		return fmt.Sprintf("%.0fms", v)
	}
	return fmt.Sprintf("%.1fs", v/1000)
}

func cut(t bool) string {
	if t {
		return " (cut)"
	}
	return ""
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// SummaryOptions are summary's arguments.
type SummaryOptions struct {
	Session string // "" for the latest
	Last    bool
	JSON    bool
}

// RunSummary renders one session of the project's event log to out.
func RunSummary(d logs.Dir, opt SummaryOptions, out io.Writer) error {
	if opt.Session != "" && opt.Last {
		return fmt.Errorf("give a session id or --last, not both")
	}
	log, err := ReadLog(d)
	if err != nil {
		return err
	}
	all := log.Events
	session := opt.Session
	if session == "" {
		if session = LastSession(all); session == "" {
			return fmt.Errorf("no event in %s names a session", File)
		}
	}
	s, err := Summarize(all, session)
	if err != nil {
		return err
	}
	s.Ignored = log.Ignored
	if opt.JSON {
		s.SchemaVersion = facts.SchemaVersion
		_, err := io.WriteString(out, facts.JSON(s))
		return err
	}
	_, err = io.WriteString(out, s.Markdown())
	return err
}
