package longrun

import (
	"fmt"
	"strings"

	"github.com/session-hooks/session-hooks/hooks/config"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/logs"
)

// The rendering below reads nothing: what it shows was gathered into a
// facts.LongRunning first.

// FeatureListOK and FeatureListMissing are the states of a feature list
// that was read or is absent; any other state says why it was not read.
const (
	FeatureListOK      = "ok"
	FeatureListMissing = "missing"
)

// Headline is the first line of every long-running section: the session,
// the features and the context.
func Headline(f facts.LongRunning) string {
	var parts []string
	if f.SessionNumber > 0 {
		parts = append(parts, fmt.Sprintf("**Session %d**", f.SessionNumber))
	}
	switch f.FeatureListState {
	case FeatureListOK:
		parts = append(parts, fmt.Sprintf("features passing **%d/%d**", f.FeaturesPassing, f.FeaturesTotal))
	case FeatureListMissing, "":
	default:
		parts = append(parts, fmt.Sprintf("feature list not read (%s)", f.FeatureListState))
	}
	if f.ContextTokens != nil {
		parts = append(parts, ContextLine(*f.ContextTokens, ContextOf(f)))
	}
	return strings.Join(parts, " · ")
}

// ContextOf is the context settings the facts were judged by.
func ContextOf(f facts.LongRunning) config.Context {
	return config.Context{Window: f.ContextWindow, Warn: f.Thresholds[0], Critical: f.Thresholds[1], Emergency: f.Thresholds[2]}
}

// ContextLine states the context in use against the thresholds.
func ContextLine(tokens int, c config.Context) string {
	level := Level(tokens, c.Warn, c.Critical, c.Emergency)
	if level == "" {
		return fmt.Sprintf("context %s tokens (warn at %s)", logs.Thousands(tokens), logs.Thousands(c.Warn))
	}
	return fmt.Sprintf("context %s tokens: **%s**, %s", logs.Thousands(tokens), level, LevelAdvice[level])
}

// InitSection is shown at startup and resume: where the plan stands, what
// comes next, and the discipline; or, without a feature list yet, how to
// set one up.
func InitSection(f facts.LongRunning) string {
	var b strings.Builder
	b.WriteString("## Long-running agent\n\n" + Headline(f) + "\n\n")
	for _, n := range f.Notes {
		fmt.Fprintf(&b, "_%s_\n\n", n)
	}
	if f.FeatureListState == FeatureListMissing {
		b.WriteString(sanitize.Clean(f.Initializer) + "\n\n")
		return b.String()
	}
	if len(f.NextFailing) > 0 {
		b.WriteString("Next failing features, in list order:\n")
		for i, feat := range f.NextFailing {
			fmt.Fprintf(&b, "%d. %s\n", i+1, logs.Code(sanitize.Excerpt(feat.Category+": "+feat.Description, 200)))
		}
		b.WriteString("\n")
	}
	if f.LastProgress != "" {
		fmt.Fprintf(&b, "Last entry of %s:\n\n", logs.Code(f.ProgressFile))
		for _, line := range strings.Split(sanitize.Clean(f.LastProgress), "\n") {
			b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Work on one feature at a time: build it, test it end to end, then set its `passes` to true (and change nothing else in %s), commit, and add an entry to %s before you stop.\n\n",
		logs.Code(f.FeatureList), logs.Code(f.ProgressFile))
	return b.String()
}

// WorkSection lists what this session did: for recovery and checkpoints.
func WorkSection(title string, f facts.LongRunning, commitNow bool) string {
	var b strings.Builder
	b.WriteString(title + "\n\n" + Headline(f) + "\n\n")
	for _, n := range f.Notes {
		fmt.Fprintf(&b, "_%s_\n\n", n)
	}
	if len(f.SessionCommits) > 0 {
		b.WriteString("Commits this session:\n")
		for _, c := range f.SessionCommits {
			id, subject, _ := strings.Cut(c, " ")
			fmt.Fprintf(&b, "- %s %s\n", id, logs.Code(subject))
		}
		b.WriteString("\n")
	} else {
		b.WriteString("No commit yet this session.\n\n")
	}
	if len(f.SessionFiles) > 0 {
		b.WriteString("Files modified this session:\n")
		for _, p := range f.SessionFiles[:min(len(f.SessionFiles), 30)] {
			fmt.Fprintf(&b, "- %s\n", logs.Code(p))
		}
		if n := len(f.SessionFiles) - 30; n > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", n)
		}
		b.WriteString("\n")
	}
	if commitNow && f.UncommittedFiles > 0 {
		fmt.Fprintf(&b, "**Uncommitted:** %d file(s) have changes not committed yet; consider committing them before the context is compacted further.\n\n", f.UncommittedFiles)
	}
	return b.String()
}
