package wiring

import (
	"encoding/json"
	"slices"
	"testing"
)

// A timeout of 0 is none set (null), any other is its seconds.
func TestSecondsIsNullForNone(t *testing.T) {
	if Seconds(0) != nil {
		t.Error("Seconds(0) is not null")
	}
	if s := Seconds(5); s == nil || *s != 5 {
		t.Errorf("Seconds(5) = %v", s)
	}
	b, _ := json.Marshal(Hook{Timeout: Seconds(0)})
	if want := `{"event":"","matcher":"","command":"","timeout_s":null,"ours":false,"exec":false,"trust":"","stands_down":""}`; string(b) != want {
		t.Errorf("a hook without a timeout is %s", b)
	}
}

func TestCoverageSaysWhatIsWiredNowhereOrTwice(t *testing.T) {
	entries := []Entry{{Key: "start", Name: "Start → init"}, {Key: "end", Name: "End → end"}}
	tests := []struct {
		name  string
		wired map[string][]string
		want  []string
	}{
		{"each once", map[string][]string{"start": {"project"}, "end": {"user"}}, nil},
		{"none", map[string][]string{}, []string{"session-hooks is not wired for Agent CLI: run session-hooks install --agent a"}},
		{"one missing", map[string][]string{"start": {"project"}},
			[]string{"not wired: End → end (session-hooks install --agent a adds it)"}},
		{"one twice, one missing", map[string][]string{"start": {"project", "user"}},
			[]string{"Start → init is wired in the project and user files: Agent CLI runs each",
				"not wired: End → end (session-hooks install --agent a adds it)"}},
	}
	for _, tt := range tests {
		got := Coverage(entries, tt.wired, "Agent CLI", "files", "session-hooks install --agent a")
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
