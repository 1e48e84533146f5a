package jsonedit

import (
	"strings"
	"testing"
)

// Adding a member then removing it gives back the file byte for byte,
// whatever its layout: comments, trailing commas, tabs, CRLF, one line.
func TestAddThenRemoveGivesBackTheFile(t *testing.T) {
	for name, doc := range map[string]string{
		"empty":          "",
		"empty object":   "{}\n",
		"one line":       `{"a": 1}`,
		"indented":       "{\n  \"a\": 1\n}\n",
		"tabs":           "{\n\t\"a\": 1\n}\n",
		"crlf":           "{\r\n    \"a\": 1\r\n}\r\n",
		"comments":       "{\n  // mine\n  \"a\": 1, /* kept */\n}\n",
		"multi-line top": "{\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			before := string(d.Bytes())
			if err := d.Add(d.Root(), "hooks", map[string]any{"x": []int{1}}); err != nil {
				t.Fatal(err)
			}
			added := string(d.Bytes())
			if !strings.Contains(added, `"hooks"`) || !strings.Contains(added, "1") {
				t.Fatalf("Add wrote %q", added)
			}
			if strings.Contains(doc, "\r\n") && strings.Count(added, "\n") != strings.Count(added, "\r\n") {
				t.Errorf("Add mixed line endings: %q", added)
			}
			if !d.MadeByAdd(d.Root(), "hooks") {
				t.Errorf("MadeByAdd does not know its own member in %q", added)
			}
			if err := d.Remove(d.Root(), MemberIndex(d.Root(), "hooks")); err != nil {
				t.Fatal(err)
			}
			if got := string(d.Bytes()); got != before {
				t.Errorf("after Add and Remove:\n%q\nwant:\n%q", got, before)
			}
		})
	}
}

// An element added to a list the user wrote sits beside its siblings, and
// removing it takes only it.
func TestElementsAreAddedAsTheirSiblingsAndRemovedAlone(t *testing.T) {
	for _, tc := range []struct{ doc, added string }{
		{`{"l": [1, 2]}`, `{"l": [1, 2, 3]}`},
		{"{\n  \"l\": [\n    1\n  ]\n}", "{\n  \"l\": [\n    1,\n    3\n  ]\n}"},
		{`{"l": []}`, `{"l": [ 3 ]}`},
		{`{"l": [1,]}`, `{"l": [1, 3,]}`},
	} {
		d, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		l := Member(d.Root(), "l")
		if err := d.Add(l, "", 3); err != nil {
			t.Fatal(err)
		}
		if got := string(d.Bytes()); got != tc.added {
			t.Errorf("Add to %q = %q, want %q", tc.doc, got, tc.added)
		}
		l = Member(d.Root(), "l")
		if err := d.Remove(l, Count(l)-1); err != nil {
			t.Fatal(err)
		}
		if got := string(d.Bytes()); got != tc.doc {
			t.Errorf("Remove gave %q, want %q", got, tc.doc)
		}
	}
}

// A member the user wrote holding one element is not taken for one Add
// made: removing its element must leave it.
func TestMadeByAddTellsTheUsersMemberFromOurs(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"hooks": {"x": [1]}}`:       true,
		`{"hooks":{"x": [1]}}`:        false,
		`{"hooks": {}}`:               false,
		`{"hooks": {"x": 1, "y": 2}}`: false,
		`{"other": 1}`:                false,
	} {
		d, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := d.MadeByAdd(d.Root(), "hooks"); got != want {
			t.Errorf("MadeByAdd(%s) = %v, want %v", doc, got, want)
		}
	}
}

func TestMembersAndElementsAreFoundAndMissingOnesAreNil(t *testing.T) {
	d, err := Parse([]byte(`{"a": [10, 20], "b": {"c": true}, "a": [30]}`))
	if err != nil {
		t.Fatal(err)
	}
	if i := MemberIndex(d.Root(), "a"); i != 2 {
		t.Errorf("MemberIndex of a repeated name = %d, want the last, 2", i)
	}
	if MemberIndex(d.Root(), "z") != -1 || MemberIndex(Element(Member(d.Root(), "a"), 0), "x") != -1 {
		t.Error("MemberIndex found what is not there")
	}
	a := Member(d.Root(), "a")
	if e := Element(a, 1); e == nil || strings.TrimSpace(string(e.Pack())) != "20" {
		t.Errorf("Element(a, 1) = %v", e)
	}
	if Element(a, 2) != nil || Element(a, -1) != nil || Element(nil, 0) != nil || Element(Member(d.Root(), "b"), 0) != nil {
		t.Error("Element found what is not there")
	}
	if Member(nil, "a") != nil || Member(a, "x") != nil || Member(Member(d.Root(), "b"), "c") == nil {
		t.Error("Member is wrong on a nil, a list, or a nested object")
	}
	if Count(a) != 2 || Count(Member(d.Root(), "b")) != 1 || Count(d.Root()) != 3 {
		t.Errorf("counts %d %d %d", Count(a), Count(Member(d.Root(), "b")), Count(d.Root()))
	}
	if err := d.Remove(a, 5); err == nil {
		t.Error("Remove of a missing element did not fail")
	}
}

func TestDuplicatesNamesBothLinesAndTheClient(t *testing.T) {
	d, err := Parse([]byte("{\n  \"hooks\": {},\n  \"x\": 1,\n  \"hooks\": {}\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = d.Duplicates(d.Root(), "the key", "Copilot CLI")
	if err == nil || err.Error() != `the key "hooks" appears twice (lines 2 and 4); Copilot CLI reads only the last. Merge them first` {
		t.Errorf("Duplicates = %v", err)
	}
	if err := d.Duplicates(Member(d.Root(), "x"), "the key", "Copilot CLI"); err != nil {
		t.Errorf("Duplicates of a number = %v", err)
	}
	d, _ = Parse([]byte(`{"a": 1, "b": 2}`))
	if err := d.Duplicates(d.Root(), "the key", "Copilot CLI"); err != nil {
		t.Errorf("Duplicates of distinct names = %v", err)
	}
}

func TestInvalidJSONIsAnError(t *testing.T) {
	if _, err := Parse([]byte(`{"a": `)); err == nil {
		t.Error("Parse accepted a torn document")
	}
}
