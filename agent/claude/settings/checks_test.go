package settings

import (
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install/hookfile"
)

func TestDoctorFindsWhatIsWrongWithTheWiring(t *testing.T) {
	n := func(v int) *int { return &v }
	good := []WiredHook{
		{Event: "SessionStart", Matcher: "startup|resume|clear|fork", Command: "session-hooks init", Timeout: n(30)},
		{Event: "SessionStart", Matcher: "compact", Command: "session-hooks init --compact-recovery", Timeout: n(30)},
		{Event: "SessionEnd", Command: "session-hooks end", Timeout: n(5)},
	}
	tests := []struct {
		name  string
		hooks []WiredHook
		want  []string
	}{
		{"as install writes it", good, nil},
		{"an old matcher without fork", append([]WiredHook{{Event: "SessionStart", Matcher: "startup|resume|clear", Command: "session-hooks init", Timeout: n(30)}}, good[1:]...),
			[]string{`no SessionStart matcher runs session-hooks init for source "fork"`}},
		{"one matcher for everything is fine", append([]WiredHook{{Event: "SessionStart", Matcher: "", Command: "session-hooks init", Timeout: n(30)}}, good[1:]...), nil},
		{"no recovery entry", []WiredHook{good[0], good[2]},
			[]string{`no SessionStart matcher runs session-hooks init --compact-recovery for source "compact"`}},
		{"SessionEnd without a timeout", []WiredHook{good[0], good[1], {Event: "SessionEnd", Command: "session-hooks end"}},
			[]string{"SessionEnd → session-hooks end has no timeout"}},
		{"a timeout in milliseconds", []WiredHook{good[0], good[1], {Event: "SessionEnd", Command: "session-hooks end", Timeout: n(5000)}},
			[]string{"has a timeout of 5000: Claude Code reads seconds (5000 s is 1.4 hours)"}},
		{"1000 is milliseconds too", []WiredHook{good[0], good[1], {Event: "SessionEnd", Command: "session-hooks end", Timeout: n(1000)}},
			[]string{"has a timeout of 1000: Claude Code reads seconds (1000 s is 16 minutes)"}},
		{"an hour is hours", []WiredHook{good[0], good[1], {Event: "SessionEnd", Command: "session-hooks end", Timeout: n(3600)}},
			[]string{"(3600 s is 1.0 hours)"}},
		{"999 seconds may be meant", []WiredHook{good[0], good[1], {Event: "SessionEnd", Command: "session-hooks end", Timeout: n(999)}}, nil},
		{"nothing of ours: install's business, not this check", []WiredHook{{Event: "Stop", Command: "notify.sh"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wiringProblems(tt.hooks, "")
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %d problem(s)", got, len(tt.want))
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("got %q, want %q", got[i], tt.want[i])
				}
			}
		})
	}
}

// A wrapper before the program ("env A=1 session-hooks end") is still the
// entry it runs: status does not say the event is not wired.
func TestStatusCountsEntriesRunThroughAWrapper(t *testing.T) {
	var all []wired
	for _, e := range hookfile.Desired("env A=1 session-hooks", false) {
		all = append(all, wired{Hook: hookfile.Hook{Event: e.Event, Matcher: e.Matcher, Command: e.Command, Timeout: e.Timeout, HasTimeout: true}, scope: "project"})
	}
	for _, w := range checkWired(all, "") {
		if strings.Contains(w, "no scope wires") {
			t.Errorf("warned: %s", w)
		}
	}
}
