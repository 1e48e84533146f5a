package main

import (
	"bytes"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/events"
	"github.com/session-hooks/session-hooks/facts"
)

// jsonRoots are the values every --format json and events.jsonl line
// marshal; docs/json.md documents them and every type they hold.
var jsonRoots = []any{facts.Init{}, facts.PreCompact{}, facts.PostCompact{}, facts.End{},
	events.Summary{}, events.Event{}, settings.Status{}, settings.Doctor{}}

// jsonFields maps each struct type reachable from the roots ("facts.Git")
// to its JSON field names; embedded structs lend their fields to the type
// that embeds them, as encoding/json does.
func jsonFields() map[string][]string {
	out := map[string][]string{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == reflect.TypeOf(time.Time{}) {
			return
		}
		name := t.String()
		if _, done := out[name]; done {
			return
		}
		out[name] = nil
		var add func(t reflect.Type)
		add = func(t reflect.Type) {
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				tag := strings.Split(f.Tag.Get("json"), ",")[0]
				switch {
				case !f.IsExported() || tag == "-":
				case f.Anonymous && tag == "":
					add(f.Type)
				default:
					if tag == "" {
						tag = f.Name
					}
					out[name] = append(out[name], tag)
					visit(f.Type)
				}
			}
		}
		add(t)
	}
	for _, r := range jsonRoots {
		visit(reflect.TypeOf(r))
	}
	return out
}

// documented reads docs/json.md: "### facts.Git" sections, each with a
// table whose rows start with "| `field` |".
func documented(t *testing.T) map[string][]string {
	b, err := os.ReadFile("docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	section := ""
	row := regexp.MustCompile("^\\| `([a-z0-9_]+)` \\|")
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			section = strings.Trim(strings.Fields(h)[0], "`")
			out[section] = nil
		} else if m := row.FindStringSubmatch(line); m != nil && section != "" {
			out[section] = append(out[section], m[1])
		}
	}
	return out
}

// TestJSONSchemaIsDocumented fails when a field is added, renamed or
// removed without docs/json.md saying so.
func TestJSONSchemaIsDocumented(t *testing.T) {
	code, doc := jsonFields(), documented(t)
	var types []string
	for k := range code {
		types = append(types, k)
	}
	sort.Strings(types)
	for _, typ := range types {
		d, ok := doc[typ]
		if !ok {
			t.Errorf("docs/json.md has no section \"### %s\" (fields %v)", typ, code[typ])
			continue
		}
		for _, f := range code[typ] {
			if !slices.Contains(d, f) {
				t.Errorf("docs/json.md, %s: field %q is not documented", typ, f)
			}
		}
		for _, f := range d {
			if !slices.Contains(code[typ], f) {
				t.Errorf("docs/json.md, %s: documents %q, which the code does not have", typ, f)
			}
		}
	}
	for typ := range doc {
		if _, ok := code[typ]; !ok {
			t.Errorf("docs/json.md documents %s, which no JSON output holds", typ)
		}
	}
}

// The plugin's hooks are the entries install writes by default, from the
// same event table. UPDATE_PLUGIN=1 rewrites plugin/hooks/hooks.json.
func TestPluginHooksAreTheTable(t *testing.T) {
	want, err := settings.PluginHooks(`"${CLAUDE_PLUGIN_ROOT}/bin/session-hooks-bridge"`)
	if err != nil {
		t.Fatal(err)
	}
	const path = "plugin/hooks/hooks.json"
	if os.Getenv("UPDATE_PLUGIN") != "" {
		os.WriteFile(path, want, 0o644)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not what the event table gives (%v); run UPDATE_PLUGIN=1 go test -run TestPluginHooksAreTheTable .\n%s", path, err, want)
	}
}
