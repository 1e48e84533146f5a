package facts

import (
	"encoding/json"
	"reflect"
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
	// Every list of every facts type, however deep, is [] when empty: a
	// null may stand only for a pointer (context_tokens, open_error…).
	for _, v := range []any{PreCompact{LongRunning: &LongRunning{}},
		Init{Start: &Start{Handoff: &Handoff{}, HandoffSince: &Since{}, Resume: &Resume{}}, Recovery: &Recovery{Facts: &Snapshot{}, Since: &Since{}}, LongRunning: &LongRunning{}},
		PostCompact{}, End{LongRunning: &LongRunning{}}} {
		var decoded any
		if err := json.Unmarshal([]byte(JSON(v)), &decoded); err != nil {
			t.Fatal(err)
		}
		lists := listFields(reflect.TypeOf(v), map[string]bool{})
		var walk func(path string, x any)
		walk = func(path string, x any) {
			switch x := x.(type) {
			case map[string]any:
				for k, val := range x {
					if val == nil && lists[k] {
						t.Errorf("%T: the list %s%s is null", v, path, k)
					}
					walk(path+k+".", val)
				}
			case []any:
				for _, e := range x {
					walk(path, e)
				}
			}
		}
		walk("", decoded)
		if len(lists) < 2 {
			t.Fatalf("%T: only %d list fields found; the walk is broken", v, len(lists))
		}
	}
}

// listFields are the JSON names of the slice fields of t and of the types
// it holds.
func listFields(t reflect.Type, seen map[string]bool) map[string]bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen["type "+t.String()] {
		return seen
	}
	seen["type "+t.String()] = true
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Type.Kind() == reflect.Slice && name != "" && name != "-" {
			seen[name] = true
		}
		listFields(f.Type, seen)
	}
	return seen
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

// A list inside each element of a list is [] too, and the elements keep
// their values: a JSON consumer iterates every list without a null check.
func TestJSONFillsTheListsInsideEveryElementOfAList(t *testing.T) {
	type inner struct {
		Name string   `json:"name"`
		L    []string `json:"l"`
	}
	type outer struct {
		Items []inner `json:"items"`
	}
	got := JSON(outer{Items: []inner{{Name: "a"}, {Name: "b", L: []string{"x"}}}})
	want := `{"items":[{"name":"a","l":[]},{"name":"b","l":["x"]}]}`
	var compact strings.Builder
	for _, r := range got {
		if r != ' ' && r != '\n' {
			compact.WriteRune(r)
		}
	}
	if compact.String() != want {
		t.Errorf("got %s, want %s", compact.String(), want)
	}
}
