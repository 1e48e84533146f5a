package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/session-hooks/session-hooks/logs"
)

func TestMain(m *testing.M) {
	testscript.Main(cleanUp{m}, map[string]func(){"session-hooks": main})
}

// cleanUp runs the tests with a configuration and a cache directory of
// their own (the hooks they run make their sealing key and keep the diff
// stat there, install its backups, not in the user's), then removes them
// and the binary the fault tests built (10 MB a run, left in the temporary
// directory before).
type cleanUp struct{ m *testing.M }

func (c cleanUp) Run() int {
	dir, err := os.MkdirTemp("", "session-hooks-test-")
	if err != nil {
		panic(err)
	}
	testenv.KeepGoCache() // the fault and canary tests build the binary
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	code := c.m.Run()
	os.RemoveAll(dir)
	for _, f := range afterTests {
		f()
	}
	return code
}

// afterTests are what the tests ask to be removed once they all ran.
var afterTests []func()

// TestCLI runs the scripts in testdata/script against the built binary:
// every subcommand and every bad input must exit 0 with a useful output.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", filepath.Join(env.WorkDir, ".home"))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			for _, k := range []string{"GIT_AUTHOR", "GIT_COMMITTER"} {
				env.Setenv(k+"_NAME", "Test")
				env.Setenv(k+"_EMAIL", "test@example.com")
			}
			// Whatever claude the person running the tests installed, the
			// scripts see none (install's default form follows it); a script
			// that wants one puts its own first on PATH.
			if runtime.GOOS != "windows" {
				noClaude := filepath.Join(env.WorkDir, ".no-claude")
				os.MkdirAll(noClaude, 0o755)
				os.WriteFile(filepath.Join(noClaude, "claude"), []byte("#!/bin/sh\nexit 127\n"), 0o755)
				env.Setenv("PATH", noClaude+string(os.PathListSeparator)+env.Getenv("PATH"))
			}
			env.Setenv("FIXTURES", mustAbs("testdata/claude-2.1.330"))
			env.Setenv("CODEX_FIXTURES", mustAbs("testdata/codex-0.169.0"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"payload":    cmdPayload,
			"maxlen":     cmdMaxLen,
			"mkfiles":    cmdMkfiles,
			"unwritable": cmdUnwritable,
			"safe":       cmdSafe,
			"sameminute": cmdSameMinute,
		},
	})
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// payload SRC DST [key=value...]: copy a recorded payload, setting keys.
// Values have $VARS expanded; "key=" removes the key.
func cmdPayload(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: payload SRC DST [key=value...]")
	}
	var m map[string]any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &m))
	for _, kv := range args[2:] {
		k, v, _ := strings.Cut(kv, "=")
		if v == "" {
			delete(m, k)
			continue
		}
		m[k] = os.Expand(v, ts.Getenv)
	}
	b, err := json.Marshal(m)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b, 0o644))
}

// sameminute N: wait, if the clock's minute turns within N seconds, until
// it has turned, so that the next N seconds of commands see one minute:
// the brief's resume line names the minute, and two resumes either side of
// its turn are two different lines.
func cmdSameMinute(ts *testscript.TestScript, neg bool, args []string) {
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	if n < 1 || n > 30 {
		ts.Fatalf("sameminute: %d seconds is not 1 to 30", n)
	}
	now := time.Now()
	if left := now.Truncate(time.Minute).Add(time.Minute).Sub(now); left < time.Duration(n)*time.Second {
		time.Sleep(left + 10*time.Millisecond)
	}
}

// maxlen N: the last command's stdout is at most N characters, counted as
// Claude Code counts them.
func cmdMaxLen(ts *testscript.TestScript, neg bool, args []string) {
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	if got := logs.Len(ts.ReadFile("stdout")); (got > n) != neg {
		ts.Fatalf("stdout is %d characters (limit %d)", got, n)
	}
}

// mkfiles DIR N: create N small files in DIR.
func cmdMkfiles(ts *testscript.TestScript, neg bool, args []string) {
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	for i := 0; i < n; i++ {
		ts.Check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("file-%05d.txt", i)), []byte("x"), 0o644))
	}
}

// unwritable DIR: make DIR refuse new entries even for root, by putting a
// file where the log directory inside it would go.
func cmdUnwritable(ts *testscript.TestScript, neg bool, args []string) {
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, ".claude", "logs"), []byte("not a directory"), 0o644))
}

// plantedSecrets are the secrets hostile_repo.txtar plants in a
// repository's refs, subjects, paths, files and transcript.
var plantedSecrets = []string{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "AKIAIOSFODNN7EXAMPLE", "xoxb-123456789012-abcdefghijkl"}

// unsafeTag is a whole tag Claude Code wraps its own text in.
var unsafeTag = regexp.MustCompile(`(?i)</?(system-reminder|system|command-name|command-message|command-args|local-command-stdout|user-prompt-submit-hook)\b[^>]*>`)

// safe [-except SUBSTRING] stdout|stderr|PATH...: nothing in the last
// command's output, or in any file below PATH, is unsafe to show a model
// or a terminal: no control character but newline and tab, no escape
// sequence, no format character (bidi, zero-width, tag characters), no
// line or paragraph separator, no whole Claude Code tag, no planted
// secret. Files whose path holds SUBSTRING are skipped (a file the test
// itself planted).
func cmdSafe(ts *testscript.TestScript, neg bool, args []string) {
	except := ""
	if len(args) > 1 && args[0] == "-except" {
		except, args = args[1], args[2:]
	}
	var problems []string
	check := func(name, s string) {
		if bad := unsafeIn(s); bad != "" {
			problems = append(problems, name+": "+bad)
		}
	}
	for _, a := range args {
		if a == "stdout" || a == "stderr" {
			check(a, ts.ReadFile(a))
			continue
		}
		filepath.WalkDir(ts.MkAbs(a), func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || except != "" && strings.Contains(p, except) {
				return nil
			}
			b, err := os.ReadFile(p)
			ts.Check(err)
			check(p, string(b))
			return nil
		})
	}
	if (len(problems) > 0) != neg {
		if neg {
			ts.Fatalf("nothing unsafe found")
		}
		ts.Fatalf("unsafe output:\n%s", strings.Join(problems, "\n"))
	}
}

// unsafeIn names the first unsafe thing in s, or "".
func unsafeIn(s string) string {
	if bad := hiddenIn(s); bad != "" {
		return bad
	}
	if loc := unsafeTag.FindStringIndex(s); loc != nil {
		return fmt.Sprintf("a Claude Code tag: %q", s[max(0, loc[0]-40):min(len(s), loc[1]+40)])
	}
	for _, secret := range plantedSecrets {
		if i := strings.Index(s, secret); i >= 0 {
			return fmt.Sprintf("the secret %s: %q", secret, s[max(0, i-40):min(len(s), i+len(secret)+10)])
		}
	}
	return ""
}

// TestScriptsRunEveryCommand: in a testscript file, everything after the
// first "-- name --" line is a file of the archive, so commands written
// there never run. No archive file may hold lines that read as commands.
func TestScriptsRunEveryCommand(t *testing.T) {
	names, _ := filepath.Glob("testdata/script/*.txtar")
	command := regexp.MustCompile(`^(! )?(exec|stdin|stdout|stderr|cmp|exists|grep|cd|payload|maxlen|mkfiles|cp|rm|mkdir|env) `)
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.Contains(string(ar.Comment), "\nexec sh "+f.Name+"\n") {
				continue // a shell script the test runs: its lines are its commands
			}
			for i, line := range strings.Split(string(f.Data), "\n") {
				if command.MatchString(line) {
					t.Errorf("%s: the archive file %s holds a command at its line %d, which never runs: %q", name, f.Name, i+1, line)
				}
			}
		}
	}
}

// hiddenIn is the allowlist the policy promises, written out here on its
// own: letters, marks, digits, punctuation, symbols, spaces, newline and
// tab, less what renders as nothing; and no tag of the clients'.
func hiddenIn(s string) string {
	for i, r := range s {
		visible := r == '\n' || r == '\t' || r >= 0x20 && r < 0x7f ||
			r >= 0x80 && unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
		invisible := r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF || r >= 0x180B && r <= 0x180F ||
			slices.Contains([]rune{0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x2800}, r)
		if !visible || invisible {
			return fmt.Sprintf("%U at byte %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
	if loc := clientTag.FindStringIndex(s); loc != nil {
		return fmt.Sprintf("a client's tag: %q", s[max(0, loc[0]-40):min(len(s), loc[1]+40)])
	}
	return ""
}

var clientTag = regexp.MustCompile(`(?i)</?(system-reminder|system|functions|function_calls|invoke|new-diagnostics|tools-used-before-summary|command-name|local-command-stdout)(?:[>/]|\s+(?:[^\s(\[{0-9]|$))`)

// The hook subcommands are the event table's, each once, in its order:
// a row added without its subcommand's file (init.go, precompact.go, …),
// or a file left after its row went, fails here.
func TestTheHookSubcommandsAreTheTables(t *testing.T) {
	var got []string
	for _, c := range newApp(nil, nil, nil, "").Commands {
		if len(got) < len(eventtable.Commands()) {
			got = append(got, c.Name)
		}
	}
	if want := eventtable.Commands(); !slices.Equal(got, want) {
		t.Errorf("the first subcommands are %q, the table's %q", got, want)
	}
}
