package settings

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/session-hooks/session-hooks/hooks/protocol"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

// wiringProblems are what doctor finds wrong with the wiring itself,
// before running anything: sources of SessionStart our entries miss, a
// SessionEnd without a timeout, timeouts written in milliseconds.
func wiringProblems(all []WiredHook, custom string) []string {
	var problems []string
	covered := map[string]bool{}
	ours := false
	for _, h := range all {
		if !hookfile.IsOurs(h.Event, h.Command, custom) {
			continue
		}
		ours = true
		if t := h.Timeout; t != nil && *t >= 1000 {
			problems = append(problems, fmt.Sprintf("%s → %s has a timeout of %d: Claude Code reads seconds (%s), which looks like milliseconds were meant",
				h.Event, h.Command, *t, longSeconds(*t)))
		}
		if h.Event == protocol.SessionEnd && h.Timeout == nil {
			problems = append(problems, "SessionEnd → "+h.Command+" has no timeout: Claude Code cancels it after about 1.5 s")
		}
		if h.Event != protocol.SessionStart {
			continue
		}
		recovery := strings.Contains(h.Command, "--compact-recovery")
		for _, src := range []string{protocol.SourceStartup, protocol.SourceResume, protocol.SourceClear, protocol.SourceFork, protocol.SourceCompact} {
			if (src == protocol.SourceCompact) == recovery && matches(h.Matcher, src) {
				covered[src] = true
			}
		}
	}
	if !ours {
		return problems
	}
	for _, src := range []string{protocol.SourceStartup, protocol.SourceResume, protocol.SourceClear, protocol.SourceFork, protocol.SourceCompact} {
		if !covered[src] {
			what := "session-hooks init"
			if src == protocol.SourceCompact {
				what += " --compact-recovery"
			}
			problems = append(problems, fmt.Sprintf("no SessionStart matcher runs %s for source %q: run session-hooks install to fix the matchers", what, src))
		}
	}
	return problems
}

// matches applies a matcher to a source as Claude Code does: empty or
// "*" matches all, "a|b" and regular expressions work, a bare word must
// match whole.
func matches(matcher, source string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	if err != nil {
		return matcher == source
	}
	return re.MatchString(source)
}

func longSeconds(s int) string {
	if s >= 3600 {
		return fmt.Sprintf("%d s is %.1f hours", s, float64(s)/3600)
	}
	return fmt.Sprintf("%d s is %d minutes", s, s/60)
}
