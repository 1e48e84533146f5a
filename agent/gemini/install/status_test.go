package install

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tree is a home and a project (a git work tree) with settings files.
func tree(t *testing.T, project, user, trustedFolders string) Where {
	t.Helper()
	root := t.TempDir()
	w := Where{Dir: filepath.Join(root, "project"), Home: filepath.Join(root, "home")}
	os.MkdirAll(filepath.Join(w.Dir, ".git"), 0o755)
	os.MkdirAll(filepath.Join(w.Dir, ".gemini"), 0o755)
	os.MkdirAll(filepath.Join(w.Home, ".gemini"), 0o700)
	for path, doc := range map[string]string{
		filepath.Join(w.Dir, ".gemini", "settings.json"):        project,
		filepath.Join(w.Home, ".gemini", "settings.json"):       user,
		filepath.Join(w.Home, ".gemini", "trustedFolders.json"): strings.ReplaceAll(trustedFolders, "$PROJECT", w.Dir),
	} {
		if doc != "" {
			os.WriteFile(path, []byte(doc), 0o600)
		}
	}
	return w
}

func installed(t *testing.T, w Where, scope string) {
	t.Helper()
	path, _ := Path(scope, w.Dir, func() (string, error) { return w.Home, nil })
	if err := Install(path, "session-hooks", nil, io.Discard, false); err != nil {
		t.Fatal(err)
	}
}

func TestStatusSaysWhatKeepsGeminiFromRunningOurHooks(t *testing.T) {
	trustProject := `{"$PROJECT": "TRUST_FOLDER"}`
	for _, tc := range []struct {
		name                 string
		project, user, trust string
		install              []string
		trustWorkspace       string
		want                 []string // each in some warning
		wantNot              string
		wantNone             bool
	}{
		{name: "nothing wired", want: []string{"not wired for Gemini CLI"}},
		{name: "the project wired in a trusted folder", install: []string{"project"}, trust: trustProject, wantNone: true},
		{name: "the project's parent trusted", install: []string{"project"}, trust: `{"$PROJECT/sub": "TRUST_PARENT"}`, wantNone: true},
		{name: "the project wired in an untrusted folder", install: []string{"project"}, want: []string{"only in a folder it trusts"}},
		{name: "a longer rule distrusts it", install: []string{"project"}, trust: `{"/": "TRUST_FOLDER", "$PROJECT": "DO_NOT_TRUST"}`, want: []string{"only in a folder it trusts"}},
		{name: "GEMINI_CLI_TRUST_WORKSPACE trusts every folder", install: []string{"project"}, trustWorkspace: "true", wantNone: true},
		{name: "the user scope needs no trust", install: []string{"user"}, wantNone: true},
		{name: "both scopes run each hook twice", install: []string{"user", "project"}, trust: trustProject, want: []string{"wired in the project and user settings"}},
		{name: "hooks turned off", user: `{"hooksConfig": {"enabled": false}}`, install: []string{"user"}, want: []string{"hooksConfig.enabled is false"}},
		{name: "ours disabled by name", user: `{"hooksConfig": {"disabled": ["session-hooks --agent gemini end"]}}`, install: []string{"user"}, want: []string{`hooksConfig.disabled lists "session-hooks --agent gemini end"`}},
		{name: "a timeout in seconds", user: `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "session-hooks --agent gemini end", "timeout": 5}]}]}}`,
			want: []string{"timeout 5 is in milliseconds", "not wired: SessionStart"}},
		{name: "a settings file Gemini cannot read", user: `{"hooks": `, want: []string{"not valid JSON"}},
		{name: "a timeout of a second is milliseconds", user: `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "session-hooks --agent gemini end", "timeout": 1000}]}]}}`,
			want: []string{"not wired: SessionStart"}, wantNot: "timeout"},
		{name: "no timeout is Gemini's default", user: `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "session-hooks --agent gemini end"}]}]}}`,
			want: []string{"not wired: SessionStart"}, wantNot: "timeout"},
		{name: "a rule for the root trusts every folder", install: []string{"project"}, trust: `{"/": "TRUST_FOLDER"}`, wantNone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tree(t, tc.project, tc.user, tc.trust)
			w.TrustWorkspace = tc.trustWorkspace
			for _, scope := range tc.install {
				installed(t, w, scope)
			}
			st := ReadStatus(w)
			all := strings.Join(st.Warnings, "\n")
			if tc.wantNone && len(st.Warnings) > 0 {
				t.Errorf("warnings:\n%s", all)
			}
			for _, want := range tc.want {
				if !strings.Contains(all, want) {
					t.Errorf("no warning says %q:\n%s", want, all)
				}
			}
			if tc.wantNot != "" && strings.Contains(all, tc.wantNot) {
				t.Errorf("a warning says %q:\n%s", tc.wantNot, all)
			}
			if text := st.Wiring().Text(reader); len(tc.install) > 0 && !strings.Contains(text, "PreCompress → session-hooks --agent gemini pre-compact (timeout 30s)") {
				t.Errorf("the text does not list the entries:\n%s", text)
			}
		})
	}
}

// Gemini CLI gives the model only a JSON reply's additionalContext: doctor
// fails any other output.
func TestDoctorChecksTheReplyAsGeminiReadsIt(t *testing.T) {
	for out, ok := range map[string]bool{
		"":   true,
		"\n": true,
		`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"brief"}}`: true,
		"## session-hooks: the brief as text\n":                                               false,
		`{"systemMessage":"x"}`:                                                               false,
		`["additionalContext"]`:                                                               false,
	} {
		if got := checkReply([]byte(out)); (got == "") != ok {
			t.Errorf("%q: %q", out, got)
		}
	}
}

// Each entry is rehearsed once, with its own timeout (Gemini CLI's 60 s
// without one) and the payload of its event.
func TestRehearsalsTakeTheEntrysTimeoutAndEvent(t *testing.T) {
	st := Status{Scopes: []ScopeStatus{
		{Hooks: []HookStatus{{Event: "PreCompress", Command: "session-hooks --agent gemini pre-compact", TimeoutMS: 1500}, {Event: "SessionEnd", Command: "session-hooks --agent gemini end"}}},
		{Hooks: []HookStatus{{Event: "PreCompress", Command: "session-hooks --agent gemini pre-compact", TimeoutMS: 1500}}},
	}}
	rs := Rehearsals(st, "/p")
	if len(rs) != 2 || rs[0].Limit.Milliseconds() != 1500 || rs[1].Limit.Seconds() != 60 {
		t.Fatalf("%+v", rs)
	}
	if p := string(rs[0].Payload); !strings.Contains(p, `"trigger":"auto"`) || !strings.Contains(p, `"cwd":"/p"`) || !strings.Contains(p, `"hook_event_name":"PreCompress"`) {
		t.Errorf("payload %s", p)
	}
	if p := string(rs[1].Payload); !strings.Contains(p, `"reason":"exit"`) {
		t.Errorf("payload %s", p)
	}
}

// The text says which files are missing, and an entry's timeout as Gemini
// CLI takes it.
func TestStatusTextSaysMissingFilesAndDefaultTimeouts(t *testing.T) {
	w := tree(t, "", `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "session-hooks --agent gemini end"}]}]}}`, "")
	text := ReadStatus(w).Wiring().Text(reader)
	for _, want := range []string{"project (" + filepath.Join(w.Dir, ".gemini", "settings.json") + "): not present\n",
		"):\n  SessionEnd → session-hooks --agent gemini end (default timeout 60s)\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n  "); n != 1 {
		t.Errorf("%d entries listed, not the one:\n%s", n, text)
	}
}

// Gemini CLI started in a subdirectory reads none of the top's project
// settings: status there says so and what works, and the user's scope
// still does.
func TestStatusBelowTheTopSaysTheProjectsHooksDoNotRun(t *testing.T) {
	w := tree(t, "", "", `{"$PROJECT": "TRUST_FOLDER"}`)
	os.RemoveAll(filepath.Join(w.Dir, ".git"))
	if out, err := exec.Command("git", "init", "-q", w.Dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	installed(t, w, "project")
	sub := filepath.Join(w.Dir, "sub")
	os.Mkdir(sub, 0o755)
	below := Where{Dir: sub, Home: w.Home}
	st := ReadStatus(below)
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "Gemini CLI started here") || !strings.Contains(st.Warnings[0], "--scope user") {
		t.Errorf("below the top: %q", st.Warnings)
	}
	if st := ReadStatus(w); len(st.Warnings) != 0 {
		t.Errorf("at the top: %q", st.Warnings)
	}
	installed(t, w, "user")
	if st := ReadStatus(below); len(st.Warnings) != 0 {
		t.Errorf("below the top, wired for the user: %q", st.Warnings)
	}
}
