package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	agents "github.com/session-hooks/session-hooks/agent"
	"github.com/session-hooks/session-hooks/agent/claude/settings"
	"github.com/session-hooks/session-hooks/hooks/facts"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/session-hooks/session-hooks/logs/events"
)

// jsonRoots are the values every --format json and events.jsonl line
// marshal; docs/json.md documents them and every type they hold.
var jsonRoots = []any{facts.Init{}, facts.PreCompact{}, facts.PostCompact{}, facts.End{},
	events.Summary{}, events.Event{}, wiring.Status{}, wiring.Doctor{}}

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

// docs/architecture.md names every package of the module in its table, and
// names no package that is not one: a code map that leaves half the
// packages out tells a reader where nothing is.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, "<!-- packages -->"), strings.Index(doc, "<!-- end of packages -->")
	if i < 0 || j < i {
		t.Fatal("docs/architecture.md has no <!-- packages --> ... <!-- end of packages --> table")
	}
	named := map[string]bool{}
	for _, line := range strings.Split(doc[i:j], "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range regexp.MustCompile("`([a-z0-9/]+)`").FindAllStringSubmatch(cells[1], -1) {
			named[m[1]] = true
		}
	}
	var packages []string
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || path == "e2e" || path == "bench" || path == "scripts" || path == "docs" || path == "npm" || path == "plugin") {
			return filepath.SkipDir
		}
		files, _ := filepath.Glob(filepath.Join(path, "*.go"))
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") && path != "." {
				packages = append(packages, filepath.ToSlash(path))
				break
			}
		}
		return nil
	})
	for _, p := range packages {
		if !named[p] {
			t.Errorf("docs/architecture.md does not name the package %s", p)
		}
		delete(named, p)
	}
	for p := range named {
		t.Errorf("docs/architecture.md names %s, which is not a package", p)
	}
}

// readmeCommandsNotRun are the README's commands no test can run here,
// each with the reason.
var readmeCommandsNotRun = map[string]string{
	"CGO_ENABLED=0 go install -tags urfave_cli_no_docs github.com/session-hooks/session-hooks@latest": "the module is not published yet (the README says so)",
	"claude plugin marketplace add session-hooks/session-hooks":                                       "it clones from GitHub; e2e/npm_test.go adds the same repository served over git on loopback",
}

// Every command the README shows (its sh blocks and its install table) is
// run by a test or by .ci/run as written, with at most more flags: a line
// of a test holds its words in order (a Go test's binary, hooksBin, stands
// for session-hooks). A README command no test runs fails here.
func TestEveryREADMECommandIsRun(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	inSh := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "```sh":
			inSh = true
		case strings.HasPrefix(line, "```"):
			inSh = false
		case inSh:
			if cmd, _, _ := strings.Cut(line, "#"); strings.TrimSpace(cmd) != "" {
				commands = append(commands, strings.TrimSpace(cmd))
			}
		case strings.HasPrefix(line, "| ") && strings.Contains(line, "`"):
			for _, m := range regexp.MustCompile("`((?:npm|claude|go|CGO_ENABLED=0) [^`]+)`").FindAllStringSubmatch(line, -1) {
				commands = append(commands, m[1])
			}
		}
	}
	if len(commands) < 8 {
		t.Fatalf("found %d commands in the README: %q", len(commands), commands)
	}
	var lines [][]string
	sources, _ := filepath.Glob("testdata/script/*.txtar")
	for _, pattern := range []string{"e2e/*_test.go", "*_test.go"} {
		more, _ := filepath.Glob(pattern)
		sources = append(sources, more...)
	}
	sources = append(sources, ".ci/run")
	clean := strings.NewReplacer(`"`, " ", ",", " ", "(", " ", ")", " ", "{", " ", "}", " ", "hooksBin", "session-hooks")
	for _, src := range sources {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			lines = append(lines, strings.Fields(clean.Replace(line)))
		}
	}
	for _, cmd := range commands {
		if _, ok := readmeCommandsNotRun[cmd]; ok {
			continue
		}
		if !slices.ContainsFunc(lines, func(words []string) bool { return inOrder(strings.Fields(cmd), words) }) {
			t.Errorf("the README's command %q is run by no test", cmd)
		}
	}
	for cmd := range readmeCommandsNotRun {
		if !slices.Contains(commands, cmd) {
			t.Errorf("%q is listed as a README command no test runs, and the README no longer shows it", cmd)
		}
	}
}

// inOrder says whether want's words appear in words, in order.
func inOrder(want, words []string) bool {
	for _, w := range words {
		if len(want) > 0 && w == want[0] {
			want = want[1:]
		}
	}
	return len(want) == 0
}

// The imports docs/architecture.md promises, the house's one way: a
// client is named (imported) only by its own folder and the registry
// (package agent, which main picks from); no client imports another, the
// handlers, or the registry; the core (hooks/...), the installs' shared
// packages, the logs, the readers and git import no client and no handler
// either. Tests may drive the core through a client's adapter.
func TestTheHouseImportsOneWay(t *testing.T) {
	const module = "github.com/session-hooks/session-hooks/"
	checked := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata" || path == "e2e" || path == "bench" || path == "scripts") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, imp := range f.Imports {
			rest, ours := strings.CutPrefix(strings.Trim(imp.Path.Value, `"`), module)
			if !ours {
				continue
			}
			if why := houseRule(dir, rest); why != "" {
				t.Errorf("%s imports %s: %s", path, rest, why)
			}
		}
		return nil
	})
	if err != nil || checked < 100 {
		t.Fatalf("checked %d files: %v", checked, err)
	}
}

// houseRule says why the package in dir may not import the module's
// package rest ("" when it may).
func houseRule(dir, rest string) string {
	client := func(p string) string { // "claude" for agent/claude/...; "" for the rest
		if c, ok := strings.CutPrefix(p, "agent/"); ok {
			return strings.Split(c, "/")[0]
		}
		return ""
	}
	switch {
	case dir == "." || dir == "agent":
		return "" // main and the registry wire everything
	case client(dir) != "" && client(rest) != "" && client(rest) != client(dir):
		return "a client imports another's package"
	case client(dir) != "" && (rest == "hooks" || rest == "agent"):
		return "a client imports the handlers or the registry"
	case client(dir) == "" && (rest == "agent" || client(rest) != ""):
		return "only the registry and a client's own folder name a client"
	case rest == "hooks" && dir != "hooks":
		return "only main runs the handlers"
	case (dir == "hooks/protocol" || dir == "hooks/eventtable") && rest != "hooks/protocol" && (strings.HasPrefix(rest, "hooks") || strings.HasPrefix(rest, "install")):
		return "the contract and the event table are the bottom of the core"
	}
	return ""
}

func TestAnImportRunningBackUpTheHouseIsRefused(t *testing.T) {
	for _, tt := range []struct{ dir, imp string }{
		{"hooks", "agent/claude"}, {"hooks/eventtable", "agent/claude"}, {"install/hookfile", "agent/claude/settings"},
		{"agent/codex", "agent/claude"}, {"agent/gemini/install", "hooks"}, {"agent/copilot", "agent"},
		{"hooks/protocol", "hooks/state"}, {"hooks/eventtable", "install/hookfile"}, {"logs/events", "hooks"},
	} {
		if houseRule(tt.dir, tt.imp) == "" {
			t.Errorf("%s may import %s", tt.dir, tt.imp)
		}
	}
	for _, tt := range []struct{ dir, imp string }{
		{".", "agent"}, {"agent", "agent/claude/settings"}, {"agent/claude/settings", "agent/claude"},
		{"hooks", "hooks/protocol"}, {"agent/codex", "hooks/protocol"}, {"hooks/eventtable", "hooks/protocol"},
	} {
		if why := houseRule(tt.dir, tt.imp); why != "" {
			t.Errorf("%s may not import %s: %s", tt.dir, tt.imp, why)
		}
	}
}

// The top level is the design card's: main.go, gitdiag, logs, transcript,
// testdata and go.mod, the other packages under a few folders (at most
// 14), and nothing compiled: no tracked file is an executable of any
// platform.
func TestTheTopLevelIsTheDesignCards(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			folders = append(folders, e.Name())
		}
	}
	if len(folders) > 14 {
		t.Errorf("%d folders at the top, over 14: %v", len(folders), folders)
	}
	for _, want := range []string{"main.go", "go.mod", "gitdiag", "logs", "transcript", "testdata"} {
		if _, err := os.Stat(want); err != nil {
			t.Errorf("the design card's %s: %v", want, err)
		}
	}
	out, err := exec.Command("git", "ls-files", "-z").Output()
	testenv.Need(t, "git and this checkout's index", err)
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if isExecutable(name) {
			t.Errorf("%s is a compiled executable, committed", name)
		}
	}
}

// isExecutable says whether the file starts as an ELF, Mach-O or PE
// executable does.
func isExecutable(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	if n, _ := f.Read(head); n < 4 {
		return false
	}
	for _, magic := range [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, {'M', 'Z'}} {
		if bytes.HasPrefix(head, magic) {
			return true
		}
	}
	return false
}

// main.go is wiring: the clients are picked from the registry, so none
// is named in it.
func TestMainNamesNoAgent(t *testing.T) {
	b, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(slices.Clone(agents.Order()[1:]), "hooks.Claude", "agent/claude", "CLAUDE_PROJECT_DIR") {
		if i := strings.Index(strings.ToLower(string(b)), strings.ToLower(name)); i >= 0 {
			t.Errorf("main.go names %s at byte %d", name, i)
		}
	}
}
