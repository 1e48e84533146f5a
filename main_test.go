package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/session-hooks/session-hooks/logs"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"session-hooks": main})
}

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
			env.Setenv("FIXTURES", mustAbs("testdata/claude-2.1.330"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"payload":    cmdPayload,
			"maxlen":     cmdMaxLen,
			"mkfiles":    cmdMkfiles,
			"unwritable": cmdUnwritable,
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
			for i, line := range strings.Split(string(f.Data), "\n") {
				if command.MatchString(line) {
					t.Errorf("%s: the archive file %s holds a command at its line %d, which never runs: %q", name, f.Name, i+1, line)
				}
			}
		}
	}
}
