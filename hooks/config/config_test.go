package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/internal/safefile"
)

func load(t *testing.T, file string, env map[string]string) (Config, []string) {
	t.Helper()
	dir := t.TempDir()
	if file != "" {
		os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
		os.WriteFile(filepath.Join(dir, File), []byte(file), 0o644)
	}
	return Load(dir, "", func(k string) string { return env[k] })
}

func TestLoadWithoutAFileGivesTheDefaults(t *testing.T) {
	c, notes := load(t, "", nil)
	if !reflect.DeepEqual(c, Defaults()) || len(notes) != 0 {
		t.Errorf("got %+v %q", c, notes)
	}
}

func TestLoadReadsEveryKey(t *testing.T) {
	c, notes := load(t, `{"longRunning":{"enabled":true,"featureList":"docs/features.json","progressFile":"PROGRESS.md",
		"initScript":"setup.sh","initializerInstructions":"docs/start.md","enforceCleanStop":false,
		"requiredFiles":["a"],"ignorePaths":["tmp/"],"nextFeatures":5},
		"context":{"warn":"50%","window":1000000,"critical":700000,"emergency":"90%"},"dryRun":true}`, nil)
	if len(notes) != 0 {
		t.Fatalf("notes %q", notes)
	}
	lr := c.LongRunning
	if !*lr.Enabled || lr.FeatureList != "docs/features.json" || lr.ProgressFile != "PROGRESS.md" || lr.InitScript != "setup.sh" ||
		lr.InitializerInstructions != "docs/start.md" || lr.EnforceCleanStop || lr.RequiredFiles[0] != "a" || lr.IgnorePaths[0] != "tmp/" || lr.NextFeatures != 5 {
		t.Errorf("long-running %+v", lr)
	}
	// Percentages are of the window, whatever the order of the keys.
	if c.Context != (Context{Window: 1000000, Warn: 500000, Critical: 700000, Emergency: 900000}) || !c.DryRun {
		t.Errorf("context %+v dry run %v", c.Context, c.DryRun)
	}
}

func TestLoadReportsUnknownKeysAndBadValuesAndKeepsDefaults(t *testing.T) {
	c, notes := load(t, `{"longRuning":{},"longRunning":{"enabled":"maybe","nextFeatures":-1,"requiredFiles":"x"},"context":{"warn":"150%"},"extra":1}`, nil)
	want := []string{
		`unknown key "longRuning"`, `unknown key "extra"`,
		"longRunning.enabled in .claude/session-hooks.json: must be true or false",
		"longRunning.nextFeatures in .claude/session-hooks.json: must be a whole number from 0 to 100, not -1; using 3",
		"longRunning.requiredFiles in .claude/session-hooks.json: must be an array of paths inside the project",
		`context.warn in .claude/session-hooks.json: must be tokens or a percentage from 0 to 100%, not "150%"; using 100000`,
	}
	all := strings.Join(notes, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no note %q in:\n%s", w, all)
		}
	}
	if c.LongRunning.NextFeatures != 3 || c.Context.Warn != 100000 {
		t.Errorf("defaults lost: %+v", c)
	}
}

func TestLoadSaysWhenTheFileIsNotJSON(t *testing.T) {
	_, notes := load(t, `{"longRunning": `, nil)
	if len(notes) != 1 || !strings.Contains(notes[0], "is not a JSON object; using the defaults") {
		t.Errorf("notes %q", notes)
	}
}

func TestEnvironmentOverridesTheFile(t *testing.T) {
	c, notes := load(t, `{"dryRun":false,"context":{"warn":1000}}`, map[string]string{
		"SESSION_HOOKS_DRY_RUN": "1", "SESSION_HOOKS_CONTEXT_WARN": "25%", "SESSION_HOOKS_CONTEXT_WINDOW": "400000",
		"SESSION_HOOKS_LONG_RUNNING": "yes", "SESSION_HOOKS_FEATURE_LIST": "f.json", "SESSION_HOOKS_CONTEXT_CRITICAL": "lots",
	})
	if !c.DryRun || c.Context.Warn != 100000 || c.Context.Window != 400000 || !*c.LongRunning.Enabled || c.LongRunning.FeatureList != "f.json" {
		t.Errorf("got %+v", c)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `SESSION_HOOKS_CONTEXT_CRITICAL="lots"`) {
		t.Errorf("notes %q", notes)
	}
}

func TestActive(t *testing.T) {
	dir := t.TempDir()
	c := Defaults()
	if c.Active(dir) {
		t.Error("active without a feature list")
	}
	os.WriteFile(filepath.Join(dir, "feature_list.json"), []byte("[]"), 0o644)
	if !c.Active(dir) {
		t.Error("not active with a feature list")
	}
	off := false
	c.LongRunning.Enabled = &off
	if c.Active(dir) {
		t.Error("active although disabled")
	}
}

func TestABadEnabledValueKeepsTheDefaultAsTheNoteSays(t *testing.T) {
	c, notes := load(t, `{"longRunning":{"enabled":"maybe"}}`, nil)
	if c.LongRunning.Enabled != nil {
		t.Errorf("enabled = %v: a bad value turned the checks off or on", *c.LongRunning.Enabled)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "using the default (on when the feature list exists)") {
		t.Errorf("notes %q", notes)
	}
}

func TestThresholdsAreSharesOfTheWindowUnlessSet(t *testing.T) {
	tests := []struct {
		name, file string
		want       Context
		note       string
	}{
		{"default window", `{}`, Context{Window: 200000, Warn: 100000, Critical: 150000, Emergency: 180000}, ""},
		{"a 1M window moves every threshold", `{"context":{"window":1000000}}`, Context{Window: 1000000, Warn: 500000, Critical: 750000, Emergency: 900000}, ""},
		{"one set, the others shares", `{"context":{"window":1000000,"critical":600000}}`, Context{Window: 1000000, Warn: 500000, Critical: 600000, Emergency: 900000}, ""},
		{"out of order is refused", `{"context":{"warn":190000,"critical":150000}}`, Context{Window: 200000, Warn: 100000, Critical: 150000, Emergency: 180000},
			"the context thresholds are out of order (warn 190000, critical 150000, emergency 180000, window 200000)"},
		{"emergency past a configured window is refused", `{"context":{"window":200000,"emergency":300000}}`, Context{Window: 200000, Warn: 100000, Critical: 150000, Emergency: 180000},
			"emergency at most the window"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, notes := load(t, tt.file, nil)
			if c.Context != tt.want {
				t.Errorf("context %+v, want %+v", c.Context, tt.want)
			}
			if all := strings.Join(notes, "\n"); tt.note == "" && all != "" || !strings.Contains(all, tt.note) {
				t.Errorf("notes %q, want %q", all, tt.note)
			}
		})
	}
}

func TestRequiredFilesFollowTheConfiguredNames(t *testing.T) {
	c, _ := load(t, `{"longRunning":{"featureList":"plan/features.json","progressFile":"NOTES.md"}}`, nil)
	if want := []safefile.Rel{"plan/features.json", "NOTES.md", "init.sh"}; !reflect.DeepEqual(c.LongRunning.RequiredFiles, want) {
		t.Errorf("required %q, want %q", c.LongRunning.RequiredFiles, want)
	}
	c, _ = load(t, `{"longRunning":{"featureList":"f.json","requiredFiles":["only.txt"]}}`, nil)
	if !reflect.DeepEqual(c.LongRunning.RequiredFiles, []safefile.Rel{"only.txt"}) {
		t.Errorf("an explicit list was replaced: %q", c.LongRunning.RequiredFiles)
	}
}

func TestUnknownKeysGetADidYouMean(t *testing.T) {
	_, notes := load(t, `{"longRuning":{},"chekpoints":3,"dryrun":true,"wholly":1}`, nil)
	all := strings.Join(notes, "\n")
	for _, w := range []string{`unknown key "longRuning" in .claude/session-hooks.json (ignored); did you mean "longRunning"?`,
		`"chekpoints" in .claude/session-hooks.json (ignored); did you mean "checkpoints"?`, `did you mean "dryRun"?`} {
		if !strings.Contains(all, w) {
			t.Errorf("no %q in:\n%s", w, all)
		}
	}
	if strings.Contains(all, `"wholly" in .claude/session-hooks.json (ignored); did you mean`) {
		t.Errorf("a far key got a suggestion:\n%s", all)
	}
}

func TestUserDefaultsApplyAndTheProjectOverridesThem(t *testing.T) {
	home := t.TempDir()
	user := filepath.Join(home, ".config", "session-hooks", "config.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte(`{"checkpoints":4,"dryRun":true,"output":"loud"}`), 0o644)
	c, notes := load(t, `{"checkpoints":2}`, map[string]string{"HOME": home})
	if c.Checkpoints != 2 || !c.DryRun {
		t.Errorf("checkpoints %d dry run %v: the user's default or the project's override was lost", c.Checkpoints, c.DryRun)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "output in "+user+`: must be "brief" or "full", not "loud"; using "brief"`) {
		t.Errorf("the note does not name the user's file: %q", notes)
	}
}

func TestNotesNameTheFileGiven(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "team.json"), []byte(`{"checkpoints":-1}`), 0o644)
	_, notes := Load(dir, "team.json", func(string) string { return "" })
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "checkpoints in team.json: ") {
		t.Errorf("notes %q", notes)
	}
}

func TestContextForTheModelsWindow(t *testing.T) {
	tests := []struct {
		name, file string
		window     int
		want       Context
	}{
		{"a 1M model moves the default thresholds", `{}`, 1_000_000, Context{Window: 1_000_000, Warn: 500_000, Critical: 750_000, Emergency: 900_000}},
		{"an unknown model keeps the configured window", `{}`, 0, Context{Window: 200_000, Warn: 100_000, Critical: 150_000, Emergency: 180_000}},
		{"the configured window overrides the model's", `{"context":{"window":300000}}`, 1_000_000, Context{Window: 300_000, Warn: 150_000, Critical: 225_000, Emergency: 270_000}},
		{"percentages follow the model's window", `{"context":{"warn":"20%"}}`, 1_000_000, Context{Window: 1_000_000, Warn: 200_000, Critical: 750_000, Emergency: 900_000}},
		{"tokens stay tokens", `{"context":{"emergency":950000}}`, 1_000_000, Context{Window: 1_000_000, Warn: 500_000, Critical: 750_000, Emergency: 950_000}},
		{"tokens out of order for a small window fall back to shares", `{"context":{"warn":400000,"critical":600000,"emergency":800000,"window":1000000}}`, 0,
			Context{Window: 1_000_000, Warn: 400_000, Critical: 600_000, Emergency: 800_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := load(t, tt.file, nil)
			if got := c.ContextFor(tt.window); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAConfiguredPathLeadingOutOfTheProjectIsRefusedWithANote(t *testing.T) {
	c, notes := load(t, `{"longRunning": {"featureList": "../../home/u/.netrc", "progressFile": "/proc/self/environ",
		"initScript": "~/.pgpass", "initializerInstructions": "/home/u/.aws/credentials", "requiredFiles": ["ok.txt", "../other/secret"]}}`, nil)
	d := Defaults().LongRunning
	lr := c.LongRunning
	if lr.FeatureList != d.FeatureList || lr.ProgressFile != d.ProgressFile || lr.InitScript != d.InitScript || lr.InitializerInstructions != "" {
		t.Errorf("a path out of the project was kept: %+v", lr)
	}
	if !reflect.DeepEqual(lr.RequiredFiles, d.RequiredFiles) {
		t.Errorf("required files %q: one leads out, the list must be refused whole", lr.RequiredFiles)
	}
	all := strings.Join(notes, "\n")
	for _, key := range []string{"featureList", "progressFile", "initScript", "initializerInstructions", "requiredFiles"} {
		if !strings.Contains(all, "longRunning."+key+" in .claude/session-hooks.json: must be") {
			t.Errorf("no note for %s in:\n%s", key, all)
		}
	}
	// The environment goes through the same check.
	c, _ = load(t, "", map[string]string{"SESSION_HOOKS_PROGRESS_FILE": "/etc/shadow"})
	if c.LongRunning.ProgressFile != d.ProgressFile {
		t.Errorf("SESSION_HOOKS_PROGRESS_FILE=/etc/shadow kept: %q", c.LongRunning.ProgressFile)
	}
}

func TestMoreRequiredFilesThanAStopLooksForAreRefused(t *testing.T) {
	exactly := `"x"` + strings.Repeat(`, "x"`, MaxRequiredFiles-1)
	if c, notes := load(t, `{"longRunning": {"requiredFiles": [`+exactly+`]}}`, nil); len(c.LongRunning.RequiredFiles) != MaxRequiredFiles || len(notes) != 0 {
		t.Errorf("%d required files kept of %d; notes %q", len(c.LongRunning.RequiredFiles), MaxRequiredFiles, notes)
	}
	many := `"x"` + strings.Repeat(`, "x"`, MaxRequiredFiles)
	c, notes := load(t, `{"longRunning": {"requiredFiles": [`+many+`]}}`, nil)
	if len(c.LongRunning.RequiredFiles) > MaxRequiredFiles || !strings.Contains(strings.Join(notes, "\n"), "over the 100 a stop looks for") {
		t.Errorf("%d required files kept; notes %q", len(c.LongRunning.RequiredFiles), notes)
	}
}

func TestValuesAtTheEdgesOfTheirRangesAreAcceptedAndOneBeyondRefused(t *testing.T) {
	tests := []struct {
		name, file string
		ok         bool
	}{
		{"no next features", `{"longRunning":{"nextFeatures":0}}`, true},
		{"the most next features", `{"longRunning":{"nextFeatures":100}}`, true},
		{"one next feature too many", `{"longRunning":{"nextFeatures":101}}`, false},
		{"the smallest window", `{"context":{"window":1000,"warn":1,"critical":2,"emergency":3}}`, true},
		{"a window one token too small", `{"context":{"window":999}}`, false},
		{"a threshold of one token", `{"context":{"warn":1}}`, true},
		{"a threshold of no token", `{"context":{"warn":0}}`, false},
		{"an emergency at the whole window", `{"context":{"emergency":"100%"}}`, true},
		{"an emergency past the whole window", `{"context":{"emergency":"100.5%"}}`, false},
		{"a threshold of no share", `{"context":{"warn":"0%"}}`, false},
		{"warn equal to critical", `{"context":{"warn":150000,"critical":150000}}`, false},
		{"critical equal to emergency", `{"context":{"critical":180000,"emergency":180000}}`, false},
		{"an emergency equal to a configured window", `{"context":{"window":300000,"emergency":300000}}`, true},
		{"the brief output", `{"output":"brief"}`, true},
		{"the full output", `{"output":"full"}`, true},
		{"another output", `{"output":"long"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, notes := load(t, tt.file, nil); (len(notes) == 0) != tt.ok {
				t.Errorf("accepted %v, want %v: notes %q", len(notes) == 0, tt.ok, notes)
			}
		})
	}
}

func TestContextForRefusesThresholdsThatMeetForTheModelsWindow(t *testing.T) {
	shares := Context{Window: 1_000_000, Warn: 500_000, Critical: 750_000, Emergency: 900_000}
	tests := []struct {
		name, file string
		want       Context
	}{
		{"warn meets critical", `{"context":{"warn":600000,"critical":600000}}`, shares},
		{"critical meets emergency", `{"context":{"critical":900000,"emergency":900000}}`, shares},
		{"emergency at the model's whole window", `{"context":{"emergency":1000000}}`,
			Context{Window: 1_000_000, Warn: 500_000, Critical: 750_000, Emergency: 1_000_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := load(t, tt.file, nil)
			if got := c.ContextFor(1_000_000); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAnEnvironmentValueWrittenAsJSONIsReadAsJSON(t *testing.T) {
	c, notes := load(t, "", map[string]string{"SESSION_HOOKS_OUTPUT": `"full"`, "SESSION_HOOKS_CONTEXT_WARN": `"40%"`})
	if c.Output != "full" || c.Context.Warn != 80_000 || len(notes) != 0 {
		t.Errorf("output %q warn %d notes %q", c.Output, c.Context.Warn, notes)
	}
}

// The project's file is read within the project: a committed .claude (or
// the file itself) linked out names nothing we read, and the note says
// why the defaults hold. A file named whole on the command line is read
// where it is.
func TestAProjectConfigLinkedOutOfTheProjectIsNotRead(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	os.MkdirAll(filepath.Join(outside, ".claude"), 0o755)
	os.WriteFile(filepath.Join(outside, File), []byte(`{"dryRun":true}`), 0o644)
	for _, link := range []struct{ name, target string }{
		{".claude", filepath.Join(outside, ".claude")},
		{File, filepath.Join(outside, File)},
	} {
		project := filepath.Join(root, "project-"+strings.ReplaceAll(link.name, "/", "-"))
		os.MkdirAll(filepath.Join(project, filepath.Dir(link.name)), 0o755)
		if err := os.Symlink(link.target, filepath.Join(project, link.name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		c, notes := Load(project, "", func(string) string { return "" })
		if c.DryRun || len(notes) != 1 || !strings.Contains(notes[0], File+" not read") {
			t.Errorf("%s linked out: dry run %v, notes %q", link.name, c.DryRun, notes)
		}
	}
	c, notes := Load(t.TempDir(), filepath.Join(outside, File), func(string) string { return "" })
	if !c.DryRun || len(notes) != 0 {
		t.Errorf("a file named whole: dry run %v, notes %q", c.DryRun, notes)
	}
}
