package gitdiag

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/gitdiag/format/config"
)

// gitConfigList is `git config --file path --includes --list`, or git's
// error line.
func gitConfigList(t *testing.T, path string) []string {
	t.Helper()
	out, err := exec.Command("git", "config", "--file", path, "--includes", "--list").CombinedOutput()
	if err != nil {
		return []string{strings.TrimSpace(string(out))}
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// ourConfigList lists what parseConfig reads, following include.path, as
// git's --list does.
func ourConfigList(path string) []string {
	var list []string
	var read func(path string) error
	read = func(path string) error {
		b, _ := os.ReadFile(path)
		return config.Parse(b, func(key string, v config.Value) error {
			if v.Implicit {
				list = append(list, key)
			} else {
				list = append(list, key+"="+v.Text)
			}
			if key == "include.path" {
				return read(filepath.Join(filepath.Dir(path), v.Text))
			}
			return nil
		}, path)
	}
	if err := read(path); err != nil {
		return []string{err.Error()}
	}
	return list
}

func TestConfigParsesAsGitDoes(t *testing.T) {
	isolateGit(t)
	tests := []struct{ name, text string }{
		{"sections and keys fold case", "[Core]\n\tFileMode = false\n\tbare\n"},
		{"subsection keeps its case", "[branch \"Feature/X\"]\n\tremote = origin\n\tmerge = refs/heads/Feature/X\n"},
		{"older dotted subsection is lower-cased", "[branch.Main]\n\tremote = up\n"},
		{"escapes in a subsection", "[a \"q\\\"uo\\\\te\"]\nk = v\n"},
		{"comments and blank lines", "# top\n; also\n\n[core] ; here\n\tk = v # after\n\tl = \"in # quotes\" ; out\n"},
		{"quoted value keeps blanks", "[x]\n\tk = \"  padded  \"\n\tm =   inner   blanks   kept  \n"},
		{"escapes in a value", "[x]\n\tk = a\\tb\\nc\\\\d\\\"e\\bf\n"},
		{"continuation line", "[x]\n\tk = first \\\n   second\n"},
		{"empty value", "[x]\n\tk =\n\tl = \"\"\n"},
		{"section and key on one line", "[core] filemode = false\n"},
		{"CRLF line ends", "[core]\r\n\tk = v\r\n"},
		{"byte order mark", "\xef\xbb\xbf[core]\n\tk = v\n"},
		{"repeated keys all listed", "[x]\n\tk = 1\n\tk = 2\n[x]\n\tk = 3\n"},
		{"key without section", "k = v\n"},
		{"no final newline", "[x]\n\tk = v"},
		{"dashes and digits in names", "[x-1]\n\tk-2 = v\n"},
		{"bad: unknown escape", "[x]\n\tk = a\\qb\n"},
		{"bad: unterminated quote", "[x]\n\tk = \"open\n"},
		{"bad: comment after a bare name", "[core]\n\tk # c\n"},
		{"bad: unterminated section", "[core\n\tk = v\n"},
		{"bad: empty section", "[]\nk = v\n"},
		{"bad: key starting with a digit", "[x]\n\t1k = v\n"},
		{"bad: newline in a subsection", "[x \"a\nb\"]\n"},
		{"bad: junk after a subsection", "[x \"a\" ]\n"},
		{"include", "[include]\n\tpath = other\n[x]\n\tk = v\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config")
			os.WriteFile(path, []byte(tt.text), 0o644)
			os.WriteFile(filepath.Join(dir, "other"), []byte("[inc]\n\tk = from include\n"), 0o644)
			compare(t, "config", gitConfigList(t, path), ourConfigList(path))
		})
	}
}

func TestConfigIncludesAndLaterFilesWin(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config"), []byte("[core]\n\texcludesFile = a\n[include]\n\tpath = inc\n[status]\n\tshowUntrackedFiles = no\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "inc"), []byte("[core]\n\texcludesFile = b\n[include]\n\tpath = inc\n"), 0o644)
	isolateGit(t)
	_, err := config.Load(dir, dir, readFile, nil)
	if err == nil || !strings.Contains(err.Error(), "maximum include depth") {
		t.Fatalf("a file including itself: err = %v, want the include depth error", err)
	}
	os.WriteFile(filepath.Join(dir, "inc"), []byte("[core]\n\texcludesFile = b\n"), 0o644)
	c, err := config.Load(dir, dir, readFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Get("core.excludesFile"); got != "b" {
		t.Errorf("core.excludesFile = %q, want the included b", got)
	}
	if got := showUntracked(c); got != "no" {
		t.Errorf("status.showUntrackedFiles = %q, want no", got)
	}
}

// git sparse-checkout writes its settings to the work tree's own
// config.worktree, read after the repository's config once
// extensions.worktreeConfig is on.
func TestWorktreeConfigIsReadWhenEnabled(t *testing.T) {
	isolateGit(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config.worktree"), []byte("[status]\n\tshowUntrackedFiles = no\n"), 0o644)
	for _, tt := range []struct {
		extension, want string
	}{{"", "all"}, {"[extensions]\n\tworktreeConfig = true\n", "no"}} {
		os.WriteFile(filepath.Join(dir, "config"), []byte("[status]\n\tshowUntrackedFiles = all\n"+tt.extension), 0o644)
		c, err := config.Load(dir, dir, readFile, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := showUntracked(c); got != tt.want {
			t.Errorf("with %q: status.showUntrackedFiles = %q, want %q", tt.extension, got, tt.want)
		}
	}
}

// includeIf sections, as people use them to keep work and personal
// settings apart, compared with what git reads in the same repository.
func TestConfigIncludeIfMatchesGit(t *testing.T) {
	home := isolateGit(t)
	f := &fixture{t: t, dir: filepath.Join(t.TempDir(), "Work", "proj")}
	f.gitIn(filepath.Dir(filepath.Dir(f.dir)), "init", "-q", "-b", "main", f.dir)
	inc := func(name, key string) string {
		p := filepath.Join(home, name)
		os.WriteFile(p, []byte("[test]\n\t"+key+" = yes\n"), 0o644)
		return p
	}
	gitDir := filepath.Join(f.dir, ".git")
	var global strings.Builder
	for i, cond := range []string{
		"gitdir:" + gitDir,                    // the git directory itself
		"gitdir:" + filepath.Dir(f.dir) + "/", // everything below a directory
		"gitdir:proj/.git",                    // relative: at any depth
		"gitdir:other/",                       // no match
		"gitdir/i:" + strings.ToUpper(filepath.Dir(f.dir)) + "/", // either case
		"gitdir:" + strings.ToUpper(filepath.Dir(f.dir)) + "/",   // case matters
		"gitdir:~/", // home expanded: no match here
		"gitdir:./", // relative to this config file
		"onbranch:main",
		"onbranch:feature/",
		"hasconfig:remote.*.url:https://example.com/**",
	} {
		fmt.Fprintf(&global, "[includeIf %q]\n\tpath = %s\n", cond, inc(fmt.Sprintf("inc%d", i), fmt.Sprintf("k%d", i)))
	}
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(global.String()), 0o644)
	c, err := config.Load(gitDir, gitDir, readFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 11; i++ {
		key := fmt.Sprintf("test.k%d", i)
		want := strings.TrimSpace(f.gitMayFailOutput("config", "--get", key))
		if got := c.Get(key); got != want {
			t.Errorf("%s = %q, git reads %q", key, got, want)
		}
	}
}

// gitMayFailOutput runs git and returns its output, whatever its exit.
func (f *fixture) gitMayFailOutput(args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = f.dir
	out, _ := cmd.Output()
	return string(out)
}

// hasconfig:remote.*.url: conditions, which people use to pick an identity
// or settings by where a project is hosted, compared with what git reads.
// The URL may be set anywhere in the configuration, before or after the
// condition; a file included this way may not set one.
func TestConfigIncludeIfHasconfigMatchesGit(t *testing.T) {
	const cond = "[includeIf \"hasconfig:remote.*.url:%s\"]\n\tpath = inc\n"
	tests := []struct {
		name, global, local, inc, inc2 string
	}{
		{name: "url in the repository, condition in the global file",
			global: fmt.Sprintf(cond, "https://github.com/acme/**"),
			local:  "[remote \"origin\"]\n\turl = https://github.com/acme/tools.git\n"},
		{name: "star does not cross a slash",
			global: fmt.Sprintf(cond, "https://github.com/*"),
			local:  "[remote \"origin\"]\n\turl = https://github.com/acme/tools.git\n"},
		{name: "no remote matches",
			global: fmt.Sprintf(cond, "git@gitlab.com:*/**"),
			local:  "[remote \"origin\"]\n\turl = https://github.com/acme/tools.git\n"},
		{name: "any of several remotes",
			global: fmt.Sprintf(cond, "git@gitlab.com:*/**"),
			local:  "[remote \"origin\"]\n\turl = https://github.com/acme/tools.git\n[remote \"mirror\"]\n\turl = git@gitlab.com:acme/tools.git\n"},
		{name: "url set after the condition in the same file",
			local: fmt.Sprintf(cond, "https://example.com/**") + "[remote \"o\"]\n\turl = https://example.com/x/y\n"},
		{name: "url from a plain include counts",
			global: fmt.Sprintf(cond, "https://example.com/**") + "[include]\n\tpath = inc2\n",
			inc2:   "[remote \"o\"]\n\turl = https://example.com/x\n"},
		{name: "remote.url without a name is not a remote url",
			global: fmt.Sprintf(cond, "https://example.com/**"),
			local:  "[remote]\n\turl = https://example.com/x\n"},
		{name: "an included file may not set a remote url",
			local: fmt.Sprintf(cond, "https://example.com/**") + "[remote \"o\"]\n\turl = https://example.com/x\n",
			inc:   "[test]\n\tk = yes\n[remote \"sneaky\"]\n\turl = https://other.example/\n"},
		{name: "nor a file it includes",
			local: fmt.Sprintf(cond, "https://nothing.example/**"),
			inc:   "[include]\n\tpath = inc2\n", inc2: "[remote \"sneaky\"]\n\turl = https://other.example/\n"},
		{name: "a plain include may",
			local: "[include]\n\tpath = inc2\n" + fmt.Sprintf(cond, "https://other.example/"),
			inc2:  "[remote \"o\"]\n\turl = https://other.example/\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := isolateGit(t)
			f := &fixture{t: t, dir: filepath.Join(t.TempDir(), "proj")}
			f.gitIn(filepath.Dir(f.dir), "init", "-q", "-b", "main", f.dir)
			gitDir := filepath.Join(f.dir, ".git")
			write := func(path, text string) {
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.inc == "" {
				tt.inc = "[test]\n\tk = yes\n"
			}
			for _, dir := range []string{home, gitDir} {
				write(filepath.Join(dir, "inc"), tt.inc)
				write(filepath.Join(dir, "inc2"), tt.inc2)
			}
			write(filepath.Join(home, ".gitconfig"), tt.global)
			local, err := os.ReadFile(filepath.Join(gitDir, "config"))
			if err != nil {
				t.Fatal(err)
			}
			write(filepath.Join(gitDir, "config"), string(local)+tt.local)

			cmd := exec.Command("git", "config", "--get", "test.k")
			cmd.Dir = f.dir
			out, _ := cmd.CombinedOutput()
			want := strings.TrimSpace(string(out))
			var got string
			if c, err := config.Load(gitDir, gitDir, readFile, nil); err != nil {
				got = err.Error()
			} else {
				got = c.Get("test.k")
			}
			if got != want {
				t.Errorf("test.k = %q, git reads %q", got, want)
			}
		})
	}
}
