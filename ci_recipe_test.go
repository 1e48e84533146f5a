//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The CI recipe of docs/ci.md, run as a workflow runs it, on a clone of
// this repository: a real history, in the states a job meets.

// ciRecipe runs scripts/ci-diagnostics.sh in dir with FAIL_ON, the built
// binary first on PATH; it returns the job summary, the annotations
// (stdout) and the exit status.
func ciRecipe(t *testing.T, dir, failOn string) (summary, annotations string, status int) {
	t.Helper()
	script, err := filepath.Abs("scripts/ci-diagnostics.sh")
	if err != nil {
		t.Fatal(err)
	}
	summaryFile := filepath.Join(t.TempDir(), "summary.md")
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(hookBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GITHUB_STEP_SUMMARY="+summaryFile, "FAIL_ON="+failOn)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(summaryFile)
	return string(b), stdout.String() + stderr.String(), status
}

func requireJQ(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("jq"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the CI recipe needs jq, which is not on PATH")
		}
		t.Skip("jq is not on PATH: the CI recipe's test is skipped")
	}
}

// cloneOfThisRepository is a clone of the repository the tests run in,
// on a branch main whose upstream origin/main is where it stands.
func cloneOfThisRepository(t *testing.T) (dir string, git func(...string) string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "clone")
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=ci", "GIT_AUTHOR_EMAIL=ci@example.com", "GIT_COMMITTER_NAME=ci",
			"GIT_COMMITTER_EMAIL=ci@example.com", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil && args[0] != "merge" {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("git", "clone", "-q", "--depth", "20", "file://"+mustAbs("."), dir).CombinedOutput(); err != nil {
		t.Skipf("this checkout cannot be cloned (%v: %s)", err, out)
	}
	git("checkout", "-q", "-B", "main")
	git("update-ref", "refs/remotes/origin/main", "HEAD")
	git("config", "branch.main.remote", "origin")
	git("config", "branch.main.merge", "refs/heads/main")
	return dir, git
}

func TestTheCIRecipeSummarisesTheCheckoutAsGitSeesIt(t *testing.T) {
	requireJQ(t)
	dir, git := cloneOfThisRepository(t)
	all := "operation,conflicted,dirty,behind,diverged,upstream-gone,incomplete"
	summary, annotations, status := ciRecipe(t, dir, all)
	if status != 0 || annotations != "" {
		t.Errorf("a clean checkout level with its upstream failed (%d): %s", status, annotations)
	}
	for _, want := range []string{"## Git: `main`", "Upstream `origin/main`: 0 ahead, 0 behind.", "Uncommitted (0):\n\nnone",
		"Latest commits:\n\n    " + git("log", "-1", "--format=%h")} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %q:\n%s", want, summary)
		}
	}

	// Dirty and behind: each fails only when FAIL_ON names it.
	git("update-ref", "refs/remotes/origin/main", git("commit-tree", "-p", "HEAD", "-m", "upstream work", "HEAD^{tree}"))
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644)
	summary, _, status = ciRecipe(t, dir, "")
	if status != 0 || !strings.Contains(summary, "0 ahead, 1 behind.") || !strings.Contains(summary, "Uncommitted (1):\n\n     M README.md") {
		t.Errorf("report only (%d):\n%s", status, summary)
	}
	_, annotations, status = ciRecipe(t, dir, "dirty, behind")
	if status != 1 || !strings.Contains(annotations, "::error title=session-hooks dirty::1 uncommitted change(s)") ||
		!strings.Contains(annotations, "::error title=session-hooks behind::1 commit(s) behind origin/main") {
		t.Errorf("FAIL_ON=dirty,behind (%d): %s", status, annotations)
	}
	if _, annotations, status = ciRecipe(t, dir, "operation,conflicted"); status != 0 {
		t.Errorf("FAIL_ON=operation,conflicted failed a checkout with neither (%d): %s", status, annotations)
	}

	// A merge left conflicted.
	git("checkout", "-q", "--", "README.md")
	git("checkout", "-q", "-b", "other")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("theirs\n"), 0o644)
	git("commit", "-qam", "theirs")
	git("checkout", "-q", "main")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("ours\n"), 0o644)
	git("commit", "-qam", "ours")
	git("merge", "-q", "other")
	summary, annotations, status = ciRecipe(t, dir, "conflicted,operation")
	if status != 1 || !strings.Contains(summary, "**In progress:** merge") || !strings.Contains(summary, "**Conflicted:**\n\n    README.md") ||
		!strings.Contains(annotations, "::error title=session-hooks conflicted::1 unmerged path(s)") ||
		!strings.Contains(annotations, "::error title=session-hooks operation::merge") {
		t.Errorf("mid-merge (%d): %s\n%s", status, annotations, summary)
	}
}

func TestTheCIRecipeRefusesAConditionItDoesNotKnow(t *testing.T) {
	requireJQ(t)
	dir, _ := cloneOfThisRepository(t)
	_, stderr, status := ciRecipe(t, dir, "dirty,bheind")
	if status != 2 || !strings.Contains(stderr, "FAIL_ON: unknown condition 'bheind'; use any of: operation, conflicted") {
		t.Errorf("(%d) %s", status, stderr)
	}
}

func TestDocsCIHoldsTheRecipeAsItRuns(t *testing.T) {
	script, err := os.ReadFile("scripts/ci-diagnostics.sh")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, append(append([]byte("```sh\n"), script...), "```\n"...)) {
		t.Error("docs/ci.md does not hold scripts/ci-diagnostics.sh as it is: copy it in")
	}
}
