package facts

import (
	"strings"
	"testing"
)

func TestJSONWritesEmptyListsAsBracketsNotNull(t *testing.T) {
	got := JSON(PreCompact{SchemaVersion: SchemaVersion, LongRunning: &LongRunning{}})
	for _, want := range []string{`"tasks": []`, `"files_touched": []`, `"session_commits": []`, `"probes": []`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, `": null`) && !strings.Contains(got, `"context_tokens": null`) {
		t.Errorf("a list is null:\n%s", got)
	}
}

func TestJSONDoesNotEscapeHTML(t *testing.T) {
	got := JSON(Git{Commits: []string{"abc1234 Handle <T> & friends"}})
	if !strings.Contains(got, "Handle <T> & friends") {
		t.Errorf("escaped: %s", got)
	}
}

func TestJSONLeavesTheCallersValueAlone(t *testing.T) {
	g := Git{}
	JSON(&g)
	if g.Status != nil {
		t.Error("JSON changed the value it was given")
	}
}
