package agent

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/install"
	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/session-hooks/session-hooks/install/wiring"
	"github.com/session-hooks/session-hooks/internal/readme"
	"github.com/session-hooks/session-hooks/internal/sanitize"
)

// --agent names the same agents everywhere: the table's list (which the
// installs' entries and doctor's checks read) and this map, each with its
// hooks' adapter and every person command.
func TestEveryAgentHasAnAdapterAndEveryCommand(t *testing.T) {
	if len(All) != len(Clients) {
		t.Errorf("%d names for %d clients: two share a name", len(All), len(Clients))
	}
	for _, name := range Order() {
		a, ok := All[name]
		if !ok || a.Hooks.Name != name || a.Hooks.Read == nil || a.Install == nil || a.Uninstall == nil || a.Status == nil || a.Doctor == nil || a.Wires == "" {
			t.Errorf("--agent %s is incomplete", name)
			continue
		}
		if len(a.Flags["install"]) == 0 {
			t.Errorf("--agent %s install takes no flag", name)
		}
		if !a.Takes("status", "format") || !a.Takes("doctor", "format") {
			t.Errorf("--agent %s: status and doctor must take --format", name)
		}
	}
	if Default != "claude" || All[Default].Hooks.Label != "Claude Code" {
		t.Errorf("the default agent is %s", Default)
	}
	if Names("and") != "claude, codex, gemini, copilot, qwen, opencode and droid" || Names("or") != "claude, codex, gemini, copilot, qwen, opencode or droid" {
		t.Errorf("Names = %q, %q", Names("and"), Names("or"))
	}
}

// The README's table of agents is the adapters' own: an agent added, or
// what one gets changed, without the README fails here.
func TestREADMEAgentTableIsTheAdapters(t *testing.T) {
	readme.CheckBlock(t, "../README.md", "agent table", Markdown(), "UPDATE_README=1 go test ./agent")
	for _, name := range Order() {
		if a := All[name].Hooks; a.Versions == "" || a.Gets == "" || a.NotYet == "" {
			t.Errorf("%s's row is incomplete", name)
		}
	}
	for _, name := range Order() {
		if !strings.Contains(InstallHelp(), "--agent "+name) {
			t.Errorf("install's help does not say where --agent %s writes", name)
		}
	}
}

// status and doctor print one shape for every agent (docs/json.md):
// wiring.Status and wiring.Doctor, named for the agent.
func TestStatusAndDoctorAreOneSchemaForEveryAgent(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	env := map[string]string{"HOME": home, "CODEX_HOME": filepath.Join(home, ".codex"), "COPILOT_HOME": filepath.Join(home, ".copilot"),
		"CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude"), "PATH": ""}
	for _, name := range Order() {
		r := install.Request{Ctx: context.Background(), Dir: dir, Getenv: func(k string) string { return env[k] },
			Home: func() (string, error) { return home, nil }, Executable: os.Executable, Out: io.Discard,
			IsSet: func(string) bool { return false }, String: func(string) string { return "" }, Bool: func(string) bool { return false }}
		st, err := All[name].Status(r)
		if err != nil {
			t.Errorf("%s status: %v", name, err)
			continue
		}
		if s, ok := st.Data.(wiring.Status); !ok || s.Agent != name || st.Problems != len(s.Warnings) || st.Text == "" {
			t.Errorf("%s status is %T %+v", name, st.Data, st.Data)
		}
		d, err := All[name].Doctor(r)
		if err != nil {
			t.Errorf("%s doctor: %v", name, err)
			continue
		}
		if doc, ok := d.Data.(wiring.Doctor); !ok || doc.Agent != name || doc.Problems == 0 || d.Problems != doc.Problems {
			t.Errorf("%s doctor (nothing wired: problems) is %T %+v", name, d.Data, d.Data)
		}
	}
}

// Claude Code's install takes the event table's install flags, each once.
func TestClaudesInstallTakesTheTablesInstallFlags(t *testing.T) {
	claude := All["claude"]
	for _, f := range []string{"post-compact", "post-tool-use", "scope", "exec", "rewrite-strict"} {
		if !claude.Takes("install", f) {
			t.Errorf("install does not take --%s", f)
		}
	}
	if claude.Takes("install", "") {
		t.Error("install takes a flag with no name")
	}
	if got := install.Names(install.TableFlags()); !slices.Equal(got, []string{"post-compact", "post-tool-use"}) {
		t.Errorf("the table's install flags = %q", got)
	}
}

// Where an agent's files are cannot be known without a home: status and
// doctor say so instead of reading somewhere else.
func TestStatusWithoutAHomeFails(t *testing.T) {
	noHome := errors.New("no home")
	r := install.Request{Ctx: context.Background(), Dir: t.TempDir(), Getenv: func(string) string { return "" },
		Home: func() (string, error) { return "", noHome }, Executable: os.Executable, Out: io.Discard,
		IsSet: func(string) bool { return false }, String: func(string) string { return "" }, Bool: func(string) bool { return false }}
	for _, name := range []string{"codex", "gemini"} {
		if _, err := All[name].Status(r); !errors.Is(err, noHome) {
			t.Errorf("%s status without a home: %v", name, err)
		}
		if _, err := All[name].Doctor(r); !errors.Is(err, noHome) {
			t.Errorf("%s doctor without a home: %v", name, err)
		}
	}
	if err := All["codex"].Uninstall(r); !errors.Is(err, noHome) {
		t.Errorf("codex uninstall without a home: %v", err)
	}
}

// Each client's install, uninstall, status and doctor take their own
// flags: a flag of one client's install that another does not heed is not
// offered to that other (the help lists only what it takes), and every
// flag a client takes has its help.
func TestEachClientsCommandsTakeOnlyTheirFlags(t *testing.T) {
	codex, gemini := All["codex"], All["gemini"]
	for _, tt := range []struct {
		client      Client
		command     string
		takes, nots []string
	}{
		{All["claude"], "install", []string{"scope", "exec", "follow-symlinks", "rewrite-strict", "post-compact"}, nil},
		{codex, "install", []string{"command", "long-running", "dry-run", "no-gitignore"}, []string{"scope", "exec", "follow-symlinks", "rewrite-strict", "post-compact", "post-tool-use"}},
		{gemini, "install", []string{"scope", "command", "long-running"}, []string{"exec", "follow-symlinks", "rewrite-strict", "post-compact", "post-tool-use"}},
		{All["copilot"], "install", []string{"scope"}, []string{"exec", "rewrite-strict"}},
		{codex, "uninstall", nil, []string{"scope", "command"}},
		{gemini, "doctor", []string{"format"}, []string{"command"}},
	} {
		for _, f := range tt.takes {
			if !tt.client.Takes(tt.command, f) {
				t.Errorf("%s %s does not take --%s", tt.client.Hooks.Name, tt.command, f)
			}
		}
		for _, f := range tt.nots {
			if tt.client.Takes(tt.command, f) {
				t.Errorf("%s %s takes --%s", tt.client.Hooks.Name, tt.command, f)
			}
		}
	}
	for _, c := range Clients {
		for command, flags := range c.Flags {
			for _, f := range flags {
				if f.Usage == "" {
					t.Errorf("%s %s --%s has no help", c.Hooks.Name, command, f.Name)
				}
			}
		}
	}
}

// The installs read settings entries with the registry's names: an entry
// naming the default client by --agent is the default's, on the
// contract's events only; another client's is that client's, on its own.
func TestAnEntryForAnotherAgentIsOursOnItsOwnEvents(t *testing.T) {
	for _, tt := range []struct {
		event, cmd string
		ours       bool
	}{
		{"BeforeAgent", "session-hooks --agent gemini init --compact-recovery", true},
		{"UserPromptSubmit", "session-hooks --agent claude init", false},
		{"SessionStart", "session-hooks --agent claude init", true},
	} {
		if got := hookfile.IsOurs(tt.event, tt.cmd, ""); got != tt.ours {
			t.Errorf("IsOurs(%s, %q) = %v", tt.event, tt.cmd, got)
		}
	}
	if _, err := hookfile.ParseHookCall("session-hooks --agent nope init", ""); err == nil || !strings.Contains(err.Error(), `--agent "nope" is not an agent`) {
		t.Errorf("an --agent the registry does not serve: %v", err)
	}
}

// The tags each client wraps its own words in are read from its recorded
// session files (testdata/<client>-<version>/), not from our own
// constants, and the one output policy neutralises every one: a client
// added with a tag the policy does not know fails here.
func TestEveryClientsRecordedTagsAreNeutralised(t *testing.T) {
	for _, c := range Clients {
		a := c.Hooks
		dirs, _ := filepath.Glob(filepath.Join("..", "testdata", a.Name+"-*"))
		if len(dirs) == 0 {
			t.Errorf("%s has no recorded fixtures in testdata", a.Name)
			continue
		}
		var recorded strings.Builder
		for _, dir := range dirs {
			filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(path)
					recorded.Write(b)
				}
				return nil
			})
		}
		if len(a.Tags) == 0 {
			t.Errorf("%s declares no tag of its own", a.Name)
		}
		for _, tag := range a.Tags {
			if !strings.Contains(recorded.String(), "<"+tag+">") && !strings.Contains(recorded.String(), "<"+tag+" ") {
				t.Errorf("%s's tag <%s> is in no recorded session of it", a.Name, tag)
			}
			for _, s := range []string{"<" + tag + ">", "</" + tag + ">"} {
				if got := sanitize.Clean("x " + s + " y"); strings.Contains(got, s) {
					t.Errorf("%s's %s reaches the model as a live tag: %q", a.Name, s, got)
				}
			}
		}
	}
}
