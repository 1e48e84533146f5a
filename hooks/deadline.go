package hooks

import (
	"fmt"
	"strconv"
	"time"
)

// DeadlineFor reads --timeout, else SESSION_HOOKS_TIMEOUT, else the event's
// default. A bad value falls back to the default with a note.
func DeadlineFor(flag, env string, def time.Duration) (time.Duration, []string) {
	for _, src := range []struct{ name, value string }{{"--timeout", flag}, {"SESSION_HOOKS_TIMEOUT", env}} {
		if src.value == "" {
			continue
		}
		d, err := parseDuration(src.value)
		if err != nil || d <= 0 {
			return def, []string{fmt.Sprintf("%s=%q is not a duration like 800ms or 5s; using %s", src.name, src.value, def)}
		}
		return d, nil
	}
	return def, nil
}

// parseDuration accepts Go durations and plain seconds ("2.5").
func parseDuration(s string) (time.Duration, error) {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(secs * float64(time.Second)), nil
	}
	return time.ParseDuration(s)
}
