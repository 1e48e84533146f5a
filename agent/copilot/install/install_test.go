package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/tidwall/gjson"
)

func TestEntriesComeFromTheEventTable(t *testing.T) {
	got := Entries("session-hooks", false)
	want := []Entry{
		{"sessionStart", "session-hooks --agent copilot init", 30},
		{"userPromptSubmitted", "session-hooks --agent copilot init --compact-recovery", 30},
		{"postToolUse", "session-hooks --agent copilot init --compact-recovery", 30},
		{"preCompact", "session-hooks --agent copilot pre-compact", 30},
		{"sessionEnd", "session-hooks --agent copilot end", 5},
	}
	if len(got) != len(want) {
		t.Fatalf("Entries = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	lr := Entries("session-hooks", true)
	if len(lr) != 6 || lr[5] != (Entry{"agentStop", "session-hooks --agent copilot stop", 30}) {
		t.Errorf("with the long-running checks: %+v", lr)
	}
}

func project(t *testing.T) (root, path string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root = t.TempDir()
	path, err := Path("project", root, "")
	if err != nil {
		t.Fatal(err)
	}
	return root, path
}

// A project install writes a hooks file of its own that Copilot CLI reads;
// uninstall removes it and the folder it made, and leaves .github.
func TestAProjectInstallIsAFileOfItsOwnThatUninstallRemoves(t *testing.T) {
	root, path := project(t)
	os.Mkdir(filepath.Join(root, ".github"), 0o755)
	var out strings.Builder
	if err := Install(Options{Path: path, Program: "session-hooks", Out: &out}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := gjson.ParseBytes(b)
	if !gjson.ValidBytes(b) || v.Get("version").Int() != 1 || v.Get("hooks.sessionStart.0.bash").Str != "session-hooks --agent copilot init" ||
		v.Get("hooks.sessionStart.0.powershell").Str != "session-hooks --agent copilot init" || v.Get("hooks.sessionStart.0.type").Str != "command" ||
		v.Get("hooks.sessionEnd.0.timeoutSec").Int() != 5 || v.Get("hooks.agentStop").Exists() {
		t.Fatalf("the hooks file:\n%s", b)
	}
	out.Reset()
	if err := Install(Options{Path: path, Program: "session-hooks", Out: &out}); err != nil || !strings.Contains(out.String(), "needs no change") {
		t.Errorf("a second install: %v %q", err, out.String())
	}
	if err := Uninstall(path, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s (%v)", filepath.Dir(path), err)
	}
	if _, err := os.Stat(filepath.Join(root, ".github")); err != nil {
		t.Errorf("uninstall removed .github, which was there before: %v", err)
	}
	// Without .github, install makes it, and uninstall takes it away.
	os.Remove(filepath.Join(root, ".github"))
	Install(Options{Path: path, Program: "session-hooks", Out: &out})
	Uninstall(path, &out)
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("uninstall left %v in the project", entries)
	}
}

// A folder the user made stays; so does a hooks file holding a hook of
// the user's, without ours.
func TestUninstallKeepsWhatTheUserHas(t *testing.T) {
	_, path := project(t)
	os.MkdirAll(filepath.Dir(path), 0o755)
	var out strings.Builder
	if err := Install(Options{Path: path, Program: "session-hooks", Out: &out}); err != nil {
		t.Fatal(err)
	}
	if err := Uninstall(path, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		t.Errorf("uninstall removed the user's folder: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("uninstall left the file install created: %v", err)
	}
	mine := `{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}`
	os.WriteFile(path, []byte(mine), 0o644)
	if err := Install(Options{Path: path, Program: "session-hooks", Out: &out}); err != nil {
		t.Fatal(err)
	}
	if err := Uninstall(path, &out); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != mine {
		t.Errorf("after install and uninstall:\n%s\nwant:\n%s", b, mine)
	}
}

// The user's settings are edited as written: every byte outside our
// entries stays, and uninstall gives the file back byte for byte.
func TestUserSettingsAreEditedLosslessly(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	home := t.TempDir()
	path, _ := Path("user", "", home)
	for _, theirs := range []string{
		"{\n  // mine\n  \"banner\": \"never\",\n}\n",
		"{\n  \"banner\": \"never\",\n  \"hooks\": {\n    \"sessionStart\": [\n      {\"type\": \"command\", \"bash\": \"echo hi\"}\n    ]\n  }\n}\n",
		"{\r\n\t\"hooks\": {}\r\n}\r\n",
		`{"banner":"never"}`,
	} {
		os.WriteFile(path, []byte(theirs), 0o600)
		var out strings.Builder
		yes := true
		if err := Install(Options{Path: path, Program: "/opt/bin/session-hooks", LongRunning: &yes, Out: &out}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if n := strings.Count(string(b), "/opt/bin/session-hooks --agent copilot"); n != 12 {
			t.Errorf("%d commands of ours (bash and powershell), want 12:\n%s", n, b)
		}
		if strings.Contains(theirs, "echo hi") && !strings.Contains(string(b), `{"type": "command", "bash": "echo hi"}`) {
			t.Errorf("the user's hook was touched:\n%s", b)
		}
		if err := Uninstall(path, &out); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != theirs {
			t.Errorf("after install and uninstall:\n%q\nwant:\n%q", b, theirs)
		}
	}
}

func TestADryRunPrintsTheChangeAndWritesNothing(t *testing.T) {
	_, path := project(t)
	var out strings.Builder
	if err := Install(Options{Path: path, Program: "session-hooks", DryRun: true, Out: &out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("a dry run made %s", filepath.Dir(path))
	}
	if !strings.Contains(out.String(), "Would change") || !strings.Contains(out.String(), "+    \"sessionStart\"") {
		t.Errorf("the dry run said:\n%s", out.String())
	}
}

func TestWhatCannotBeEditedIsRefusedUntouched(t *testing.T) {
	home := t.TempDir()
	path, _ := Path("user", "", home)
	for doc, why := range map[string]string{
		`{"banner": `:                     "not JSON",
		`[1]`:                             "not a JSON object",
		`{"hooks": []}`:                   `"hooks" is not an object`,
		`{"hooks": {"sessionStart": {}}}`: "hooks.sessionStart is not a list",
		`{"hooks": {}, "hooks": {}}`:      `the key "hooks" appears twice`,
		`{"hooks": {"a": [], "a": []}}`:   `the hook event "a" appears twice`,
		strings.Repeat("[", 10000) + "1" + strings.Repeat("]", 10000): "nest",
	} {
		os.WriteFile(path, []byte(doc), 0o600)
		err := Install(Options{Path: path, Program: "session-hooks", Out: new(strings.Builder)})
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "left untouched") {
			t.Errorf("%s: %v, want %q", doc, err, why)
		}
		if b, _ := os.ReadFile(path); string(b) != doc {
			t.Errorf("%s was changed to %s", doc, b)
		}
	}
	link := filepath.Join(home, "link.json")
	os.Symlink(path, link)
	if err := Install(Options{Path: link, Program: "session-hooks", Out: new(strings.Builder)}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a link: %v", err)
	}
}

func TestPathsOfTheScopes(t *testing.T) {
	if p, _ := Path("project", "/r", ""); p != filepath.FromSlash("/r/.github/hooks/session-hooks.json") {
		t.Errorf("project: %s", p)
	}
	if p, _ := Path("user", "/r", "/h/.copilot"); p != filepath.FromSlash("/h/.copilot/settings.json") {
		t.Errorf("user: %s", p)
	}
	if _, err := Path("user", "/r", ""); err == nil {
		t.Error("a user scope without a home")
	}
	if _, err := Path("local", "/r", "/h"); err == nil || !strings.Contains(err.Error(), "project and user") {
		t.Errorf("local: %v", err)
	}
}

func TestIsOurs(t *testing.T) {
	for cmd, want := range map[string]bool{
		"session-hooks --agent copilot init":                true,
		"'/opt/my bin/session-hooks' --agent copilot end":   true, // install quotes a path with a space
		"/opt/bin/session-hooks --agent copilot end":        true,
		`"C:\bin\session-hooks.exe" --agent copilot end`:    true,
		"session-hooks --agent gemini init":                 false,
		"session-hooks init":                                false,
		"other --agent copilot init":                        false,
		"echo session-hooks --agent copilot init; rm -rf /": true,
		"session-hooks --agent":                             false,
	} {
		if got := IsOurs(cmd); got != want {
			t.Errorf("IsOurs(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestStatusSaysWhatIsWiredAndWhatIsNot(t *testing.T) {
	root, path := project(t)
	home := t.TempDir()
	st := ReadStatus(Where{Root: root, Home: home})
	if len(st.Scopes) != 2 || st.Scopes[0].Found || len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "not wired for Copilot CLI") {
		t.Fatalf("before install: %+v", st)
	}
	Install(Options{Path: path, Program: "session-hooks", Out: new(strings.Builder)})
	st = ReadStatus(Where{Root: root, Home: home})
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "does not trust "+root) || !strings.Contains(st.Warnings[0], filepath.Join(home, "config.json")) {
		t.Fatalf("after install, in a folder Copilot CLI does not trust: %q", st.Warnings)
	}
	// As Copilot CLI 1.0.102 writes it when the user trusts the folder.
	os.WriteFile(filepath.Join(home, "config.json"), []byte("// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    \""+root+"\"\n  ]\n}\n"), 0o600)
	st = ReadStatus(Where{Root: root, Home: home})
	if !st.Scopes[0].Found || len(st.Scopes[0].Hooks) != 5 || len(st.Warnings) != 0 {
		t.Fatalf("after install: %+v", st)
	}
	if text := st.Wiring().Text(reader); !strings.Contains(text, "project ("+path+"):\n") || strings.Count(text, " → session-hooks --agent copilot ") != 5 ||
		!strings.Contains(text, "sessionEnd → session-hooks --agent copilot end (timeout 5s)") {
		t.Errorf("the text:\n%s", text)
	}
	user, _ := Path("user", "", home)
	Install(Options{Path: user, Program: "session-hooks", Out: new(strings.Builder)})
	os.MkdirAll(filepath.Join(root, ".github", "copilot"), 0o755)
	os.WriteFile(filepath.Join(root, ".github", "copilot", "settings.json"), []byte(`{"disableAllHooks": true}`), 0o644)
	st = ReadStatus(Where{Root: root, Home: home})
	if n := len(st.Warnings); n != 6 || !strings.Contains(st.Warnings[0], "disableAllHooks is true") || !strings.Contains(st.Warnings[1], "wired in the project and user files") {
		t.Errorf("wired twice and hooks disabled: %q", st.Warnings)
	}
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), `"preCompact"`, `"preCompaction"`, 1)), 0o644)
	os.Remove(user)
	st = ReadStatus(Where{Root: root, Home: home})
	if len(st.Warnings) != 2 || !strings.Contains(st.Warnings[1], "not wired: preCompact → session-hooks --agent copilot pre-compact") {
		t.Errorf("one entry missing: %q", st.Warnings)
	}
	os.WriteFile(path, []byte("{"), 0o644)
	if st := ReadStatus(Where{Root: root, Home: home}); st.Scopes[0].Error == "" || !strings.Contains(st.Warnings[0], "will not load it either") {
		t.Errorf("a torn file: %+v", st)
	}
	if st := ReadStatus(Where{Root: root}); !strings.Contains(strings.Join(st.Warnings, "\n"), "set COPILOT_HOME or HOME") {
		t.Errorf("no home: %q", st.Warnings)
	}
}

func TestRehearsalsRunEachEntryOnceWithCopilotsPayload(t *testing.T) {
	st := Status{Scopes: []ScopeStatus{
		{Hooks: []Entry{{"sessionStart", "session-hooks --agent copilot init", 30}, {"sessionEnd", "session-hooks --agent copilot end", 0}}},
		{Hooks: []Entry{{"sessionStart", "session-hooks --agent copilot init", 30}, {"agentStop", "session-hooks --agent copilot stop", 30}}},
	}}
	rs := Rehearsals(st, "/p")
	if len(rs) != 3 || rs[1].Limit != 30*time.Second || rs[0].Limit != 30*time.Second {
		t.Fatalf("rehearsals: %+v", rs)
	}
	if p := gjson.ParseBytes(rs[0].Payload); p.Get("sessionId").Str == "" || p.Get("cwd").Str != "/p" || p.Get("source").Str != "new" {
		t.Errorf("sessionStart's payload: %s", rs[0].Payload)
	}
	for _, tc := range []struct {
		r       hookfile.Rehearsal
		out     string
		problem string
	}{
		{rs[0], "", ""},
		{rs[0], `{"additionalContext":"x"}`, ""},
		{rs[0], "plain text", "not JSON"},
		{rs[0], `{"other":1}`, "no additionalContext"},
		{rs[1], `{"anything":1}`, ""},
		{rs[2], `{"decision":"block","reason":"r"}`, ""},
		{rs[2], `{"decision":"allow"}`, "not one Copilot CLI reads"},
	} {
		if got := tc.r.Check([]byte(tc.out)); (tc.problem == "") != (got == "") || !strings.Contains(got, tc.problem) {
			t.Errorf("%s with %q: %q, want %q", tc.r.Event, tc.out, got, tc.problem)
		}
	}
}

// What uninstall leaves of a file install created goes when it holds
// nothing: empty lists of events, and the hooks file's version (a user's
// settings.json with a version holds something of the user's).
func TestAFileInstallCreatedGoesOnlyWhenNothingIsLeft(t *testing.T) {
	_, path := project(t)
	home := t.TempDir()
	user, _ := Path("user", "", home)
	for _, tc := range []struct {
		path, added string
		removed     bool
	}{
		{path, `"preToolUse": []`, true},
		{path, `"preToolUse": [{"type": "command", "bash": "echo mine"}]`, false},
		{user, `"preToolUse": []`, true},
	} {
		if err := Install(Options{Path: tc.path, Program: "session-hooks", Out: new(strings.Builder)}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(tc.path)
		os.WriteFile(tc.path, []byte(strings.Replace(string(b), `"hooks": {`, `"hooks": {`+tc.added+`, `, 1)), 0o644)
		if err := Uninstall(tc.path, new(strings.Builder)); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(tc.path)
		if removed := os.IsNotExist(err); removed != tc.removed {
			t.Errorf("%s with %s: removed %v, want %v", filepath.Base(tc.path), tc.added, removed, tc.removed)
		}
		os.Remove(tc.path)
	}
	os.WriteFile(user, nil, 0o600)
	os.Remove(user)
	Install(Options{Path: user, Program: "session-hooks", Out: new(strings.Builder)})
	b, _ := os.ReadFile(user)
	os.WriteFile(user, []byte(strings.Replace(string(b), "{", `{"version": 1, `, 1)), 0o600)
	Uninstall(user, new(strings.Builder))
	if _, err := os.Stat(user); err != nil {
		t.Errorf("a user's settings.json holding a version was removed: %v", err)
	}
}

func TestStatusTextSaysCopilotsDefaultTimeout(t *testing.T) {
	st := Status{Scopes: []ScopeStatus{{Scope: "project", Path: "/p/h.json", Found: true,
		Hooks: []Entry{{"sessionStart", "session-hooks --agent copilot init", 0}, {"sessionEnd", "session-hooks --agent copilot end", 5}}}}}
	text := st.Wiring().Text(reader)
	if !strings.Contains(text, "sessionStart → session-hooks --agent copilot init (default timeout 30s)") || !strings.Contains(text, "(timeout 5s)") {
		t.Errorf("the text:\n%s", text)
	}
}

// The long-running checks are added when asked, kept when wired already,
// and removed when asked off.
func TestLongRunningChecksOnAgentStopAreAsAskedElseAsWired(t *testing.T) {
	_, path := project(t)
	yes, no := true, false
	has := func() bool {
		b, _ := os.ReadFile(path)
		return strings.Contains(string(b), "--agent copilot stop")
	}
	for i, s := range []struct {
		asked *bool
		want  bool
	}{{nil, false}, {&yes, true}, {nil, true}, {&no, false}, {nil, false}} {
		if err := Install(Options{Path: path, Program: "session-hooks", LongRunning: s.asked, Out: new(strings.Builder)}); err != nil {
			t.Fatal(err)
		}
		if has() != s.want {
			t.Errorf("step %d: agentStop wired %v, want %v", i, has(), s.want)
		}
	}
}

// A committed .github or .github/hooks that links out of the repository
// is not written through, whichever folder links.
func TestInstallRefusesACommittedFolderLinkOutOfTheRepository(t *testing.T) {
	for _, link := range []string{".github", filepath.Join(".github", "hooks")} {
		root, path := project(t)
		elsewhere := t.TempDir()
		os.MkdirAll(filepath.Join(elsewhere, "hooks"), 0o755)
		os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755)
		target := elsewhere
		if link != ".github" {
			target = filepath.Join(elsewhere, "hooks")
		}
		os.Symlink(target, filepath.Join(root, link))
		err := Install(Options{Path: path, Program: "session-hooks", Out: new(strings.Builder)})
		if err == nil || !strings.Contains(err.Error(), "not writing through the link") {
			t.Errorf("%s linked out: %v", link, err)
		}
		if entries, _ := os.ReadDir(filepath.Join(elsewhere, "hooks")); len(entries) != 0 {
			t.Errorf("%s linked out: %d files written outside", link, len(entries))
		}
	}
}

// A change to a file that was there keeps its previous version, and says
// where; a file install creates has no previous version to name.
func TestInstallSaysWhereThePreviousVersionIsKept(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	home := t.TempDir()
	path, _ := Path("user", "", home)
	var out strings.Builder
	if err := Install(Options{Path: path, Program: "session-hooks", Out: &out}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "previous version") {
		t.Errorf("a new file's install names a previous version:\n%s", out.String())
	}
	os.WriteFile(path, []byte(`{"theme": "dark"}`), 0o600)
	out.Reset()
	if err := Install(Options{Path: path, Program: "session-hooks", Out: &out}); err != nil {
		t.Fatal(err)
	}
	_, kept, ok := strings.Cut(out.String(), "The previous version is kept as ")
	kept = strings.TrimSuffix(strings.TrimSpace(kept), ".")
	if b, err := os.ReadFile(kept); !ok || err != nil || string(b) != `{"theme": "dark"}` {
		t.Errorf("the previous version is not where it says (%q): %v\n%s", kept, err, out.String())
	}
}

// A folder is trusted as Copilot CLI trusts it: listed in config.json, or
// below a folder listed (under either spelling of the key), or every
// folder with COPILOT_ALLOW_ALL=true; a folder whose name merely starts
// like a trusted one is not.
func TestTrustIsCopilotCLIs(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	project := filepath.Join(root, "project")
	for _, tt := range []struct {
		name, config string
		allowAll     bool
		trusted      bool
	}{
		{"no config.json", "", false, false},
		{"the folder", `{"trustedFolders": ["` + project + `"]}`, false, true},
		{"a folder above", "// managed\n" + `{"trustedFolders": ["` + root + `"]}`, false, true},
		{"the key as the docs spell it", `{"trusted_folders": ["` + project + `"]}`, false, true},
		{"a sibling whose name starts alike", `{"trustedFolders": ["` + project + `-other", "` + project + `x"]}`, false, false},
		{"a folder below", `{"trustedFolders": ["` + filepath.Join(project, "sub") + `"]}`, false, false},
		{"COPILOT_ALLOW_ALL", "", true, true},
	} {
		os.Remove(filepath.Join(home, "config.json"))
		if tt.config != "" {
			os.WriteFile(filepath.Join(home, "config.json"), []byte(tt.config), 0o600)
		}
		if got := TrustOf(project, home, tt.allowAll); got.Trusted != tt.trusted {
			t.Errorf("%s: trusted %v, want %v", tt.name, got.Trusted, tt.trusted)
		}
	}
	if !allowAll(func(string) string { return "TRUE" }) || allowAll(func(string) string { return "1" }) {
		t.Error("COPILOT_ALLOW_ALL is true only when it says true")
	}
}
