//go:build e2e

package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// verdaccioVersion is the local npm registry the npm tests publish to: the
// newest that runs on Node.js 20 (6.10 wants 22), with node-fetch pinned as
// its install needs (distribution.md).
const verdaccioVersion = "6.8.0"

// npmVersion is the version the npm tests give the packages they publish.
const npmVersion = "0.99.0"

// ensureVerdaccio installs verdaccio into the suite's cache when it is not
// there yet, and returns its command, or why it cannot be had.
func ensureVerdaccio() (bin, unavailable string) {
	if npmCache == "" {
		return "", "no cache directory for verdaccio"
	}
	prefix := filepath.Join(npmCache, "verdaccio-"+verdaccioVersion)
	bin = filepath.Join(prefix, "node_modules", ".bin", "verdaccio")
	if _, err := os.Stat(bin); err == nil {
		return bin, ""
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "npm is not installed, so verdaccio cannot be installed"
	}
	os.MkdirAll(prefix, 0o755)
	pkg := `{"private":true,"dependencies":{"verdaccio":"` + verdaccioVersion + `"},"overrides":{"node-fetch":"2.7.0"}}`
	if err := os.WriteFile(filepath.Join(prefix, "package.json"), []byte(pkg), 0o644); err != nil {
		return "", err.Error()
	}
	fmt.Fprintf(os.Stderr, "installing verdaccio %s into %s...\n", verdaccioVersion, prefix)
	install := exec.Command("npm", "install", "--no-audit", "--no-fund")
	install.Dir = prefix
	if out, err := install.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("npm install failed: %v\n%s", err, out)
	}
	return bin, ""
}

// nodePlatform is this machine's platform as Node.js and the npm packages
// name it (linux-x64).
func nodePlatform() string {
	goos := runtime.GOOS
	if goos == "windows" {
		goos = "win32"
	}
	return goos + "-" + map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
}

// releaseDist lays the suite's binary out as goreleaser's output for this
// machine's platform: its archive, checksums.txt, artifacts.json and
// metadata.json, which scripts/npmpackages reads.
func releaseDist(t *testing.T) string {
	t.Helper()
	dist := t.TempDir()
	name := fmt.Sprintf("session-hooks_%s_%s_%s.tar.gz", npmVersion, runtime.GOOS, runtime.GOARCH)
	f, err := os.Create(filepath.Join(dist, name))
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, file := range [][2]string{{hooksBin, "session-hooks"}, {"../LICENSE", "LICENSE"}, {"../README.md", "README.md"}} {
		b, err := os.ReadFile(file[0])
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: file[1], Mode: 0o755, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	f.Close()
	data, _ := os.ReadFile(filepath.Join(dist, name))
	os.WriteFile(filepath.Join(dist, "checksums.txt"), []byte(fmt.Sprintf("%x  %s\n", sha256.Sum256(data), name)), 0o644)
	artifacts, _ := json.Marshal([]map[string]string{{"name": name, "path": filepath.Join(dist, name),
		"goos": runtime.GOOS, "goarch": runtime.GOARCH, "type": "Archive"}})
	os.WriteFile(filepath.Join(dist, "artifacts.json"), artifacts, 0o644)
	os.WriteFile(filepath.Join(dist, "metadata.json"), []byte(`{"version":"`+npmVersion+`"}`), 0o644)
	return dist
}

// registry is a local npm registry on loopback holding the packages
// scripts/npmpackages made of this build, as a release publishes them.
type registry struct {
	url  string
	dist string // the release the packages were made from
}

// startRegistry starts verdaccio on a loopback port with no uplink (what it
// does not hold is not found: nothing reaches the network) and publishes
// the packages to it.
func startRegistry(t *testing.T) *registry {
	t.Helper()
	bin, why := ensureVerdaccio()
	if why != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("the npm end-to-end test cannot run in CI: %s", why)
		}
		t.Skipf("npm end-to-end test skipped: %s", why)
	}
	dist := releaseDist(t)
	out := filepath.Join(dist, "npm")
	cmd := exec.Command("go", "run", "../scripts/npmpackages", "-dist", dist, "-out", out, "-only", nodePlatform(), "-launcher", "../npm/session-hooks.js")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/npmpackages: %v\n%s", err, b)
	}
	dir := t.TempDir()
	config := `storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 10
uplinks: {}
# verdaccio refuses a publish over 10 MB by default; npmjs.com takes far
# more, and the platform package's binary, base64 in the request, is over.
max_body_size: 100mb
packages:
  '**':
    access: $all
    publish: $authenticated
log: { type: stdout, format: pretty, level: warn }
`
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o644)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	server := exec.Command(bin, "--config", filepath.Join(dir, "config.yaml"), "--listen", addr)
	server.Dir = dir
	logFile, _ := os.Create(filepath.Join(dir, "verdaccio.log"))
	server.Stdout, server.Stderr = logFile, logFile
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait(); logFile.Close() })
	r := &registry{url: "http://" + addr + "/", dist: dist}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(r.url + "-/ping"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Since(start) > 60*time.Second {
			log, _ := os.ReadFile(filepath.Join(dir, "verdaccio.log"))
			t.Fatalf("verdaccio did not answer on %s:\n%s", addr, log)
		}
	}
	// A user of the registry's own, for publishing.
	req, _ := http.NewRequest(http.MethodPut, r.url+"-/user/org.couchdb.user:release",
		strings.NewReader(`{"name":"release","password":"release-password"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var user struct{ Token string }
	json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&user)
	resp.Body.Close()
	if user.Token == "" {
		t.Fatalf("verdaccio gave no token: %s", resp.Status)
	}
	npmrc := filepath.Join(dir, "npmrc")
	os.WriteFile(npmrc, []byte("//"+addr+"/:_authToken="+user.Token+"\n"), 0o600)
	for _, pkg := range []string{nodePlatform(), "session-hooks"} { // the binary's first, as a release does
		publish := exec.Command("npm", "publish", filepath.Join(out, pkg), "--registry", r.url)
		publish.Env = append(os.Environ(), "npm_config_userconfig="+npmrc, "npm_config_cache="+filepath.Join(dir, "npm-cache"))
		if b, err := publish.CombinedOutput(); err != nil {
			t.Fatalf("npm publish %s: %v\n%s", pkg, err, b)
		}
	}
	return r
}

// user is a user with a clean home and npm prefix, whose npm reads from
// the registry, and whose PATH holds npm's global commands, Node.js and
// the system's, and no other session-hooks.
type user struct {
	env    []string
	path   string // PATH
	prefix string // npm's global prefix: its commands are in bin/
}

func (r *registry) newUser(t *testing.T) user {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	home, prefix := t.TempDir(), t.TempDir()
	path := strings.Join([]string{filepath.Join(prefix, "bin"), filepath.Dir(node), "/usr/local/bin", "/usr/bin", "/bin"}, string(os.PathListSeparator))
	env := []string{"HOME=" + home, "PATH=" + path, "npm_config_prefix=" + prefix, "npm_config_registry=" + r.url,
		"npm_config_cache=" + filepath.Join(home, ".npm"), "npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false"}
	return user{env: env, path: path, prefix: prefix}
}

// run runs a command the user types, found on the user's PATH, in dir.
func (u user) run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	bin, err := lookPathIn(u.path, name)
	if err != nil {
		t.Fatalf("%s is not on the user's PATH", name)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, u.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// In a clean home, `npm i -g session-hooks` puts session-hooks on PATH; `session-hooks install` wires the
// project with a command a teammate's machine runs too; the next Claude
// Code session gets the brief in its first request.
func TestInstalledWithNpmTheNextSessionGetsTheBrief(t *testing.T) {
	requireClaude(t)
	r := startRegistry(t)
	u := r.newUser(t)
	s := newSession(t)
	os.Remove(s.settings)                                  // install writes them
	u.run(t, s.project, "npm", "i", "-g", "session-hooks") // the README's line
	contains(t, "session-hooks version", u.run(t, s.project, "session-hooks", "version"), "session-hooks version")
	// The command on PATH is the binary itself: a hook run by name starts
	// no Node.js (the install script put it in the launcher's place).
	cmd, err := lookPathIn(u.path, "session-hooks")
	if err != nil || !isNative(t, cmd) {
		t.Errorf("the command npm put on PATH (%s, %v) is not the native binary", cmd, err)
	}
	// A hook through the installed command costs what the binary costs
	// (through the launcher it cost 26 times as much): medians of 7 runs of
	// a session start, side by side.
	viaNpm, direct := hookTime(t, cmd, s.project), hookTime(t, hooksBin, s.project)
	t.Logf("init through npm's command: %s; the binary: %s", viaNpm, direct)
	if viaNpm > 3*direct+20*time.Millisecond {
		t.Errorf("a hook through npm's command took %s, the binary %s", viaNpm, direct)
	}
	u.run(t, s.project, "session-hooks", "install")
	settings, _ := os.ReadFile(s.settings)
	contains(t, "the project's settings", string(settings), `"command": "session-hooks init"`)
	s.git("commit", "-q", "--allow-empty", "-m", "Not pushed yet")
	// The session runs with the user's PATH: the hooks find session-hooks
	// where npm put it.
	t.Setenv("PATH", u.path)
	s.claude(s.project, "-p", "hello")
	reqs := s.mainRequests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the API")
	}
	contains(t, "the injected context", ownOutput(injected(t, reqs[0], "startup")), briefHeader,
		"1 commit ahead and 0 commits behind `origin/main`.")
}

// Installed from the marketplace as the README says (a git repository,
// here served by git's own smart HTTP on loopback, as GitHub serves it),
// the plugin with the package.json a release writes and its
// package-lock.json: Claude Code runs npm ci in the plugin's folder (here
// from the local registry), which places this platform's binary in its
// node_modules; with no session-hooks on PATH, the next session gets the
// brief, once. (A marketplace added as a local directory is read in place,
// where npm placed nothing: the bridge then needs the binary on PATH.)
func TestThePluginInstalledWithItsNpmDependencyNeedsNoBinaryOnPath(t *testing.T) {
	requireClaude(t)
	r := startRegistry(t)
	u := r.newUser(t)
	if p, err := lookPathIn(u.path, "session-hooks"); err == nil {
		t.Fatalf("session-hooks is on the user's PATH already: %s", p)
	}
	market := t.TempDir()
	copyTree(t, "../.claude-plugin", market)
	copyTree(t, "../plugin", market)
	cmd := exec.Command("go", "run", "../scripts/npmpackages", "-dist", r.dist, "-out", t.TempDir(), "-only", nodePlatform(),
		"-launcher", "../npm/session-hooks.js", "-plugin", filepath.Join(market, "plugin"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/npmpackages: %v\n%s", err, b)
	}
	u.run(t, filepath.Join(market, "plugin"), "npm", "install", "--package-lock-only", "--ignore-scripts")
	url := serveGit(t, market)
	s := newSession(t)
	os.Remove(s.settings)
	for _, args := range [][]string{{"plugin", "marketplace", "add", url}, {"plugin", "install", "session-hooks@session-hooks"}} {
		cmd := exec.Command(claudeBin, args...)
		cmd.Dir = s.project
		cmd.Env = append(u.env, "CLAUDE_CONFIG_DIR="+s.config, "DISABLE_TELEMETRY=1",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("claude %v: %v\n%s", args, err, out)
		}
	}
	placed, _ := filepath.Glob(filepath.Join(s.config, "plugins", "cache", "*", "*", "*", "node_modules", "@session-hooks", nodePlatform(), "bin", "session-hooks"))
	if len(placed) != 1 {
		t.Fatalf("the plugin's install placed %d binaries in its node_modules, want 1", len(placed))
	}
	s.git("commit", "-q", "--allow-empty", "-m", "Not pushed yet")
	t.Setenv("PATH", u.path)
	s.claude(s.project, "-p", "hello")
	start := messagesText(s.mainRequests()[0])
	if n := strings.Count(start, briefHeader); n != 1 {
		t.Errorf("the startup brief arrived %d times:\n%s", n, clip(start, 4000))
	}
	contains(t, "the first request", start, "1 commit ahead and 0 commits behind `origin/main`.")
}

// serveGit commits dir as a git repository and serves it over git's smart
// HTTP protocol on loopback; it returns the repository's URL.
func serveGit(t *testing.T, dir string) string {
	t.Helper()
	run := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(dir, "init", "-q", "-b", "main")
	run(dir, "add", "-A")
	run(dir, "commit", "-q", "-m", "The marketplace")
	root := t.TempDir()
	run(root, "clone", "-q", "--bare", dir, "market.git")
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&cgi.Handler{Path: git, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}})
	t.Cleanup(srv.Close)
	return srv.URL + "/market.git"
}

// lookPathIn is exec.LookPath with path for PATH.
func lookPathIn(path, name string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return filepath.Join(d, name), nil
		}
	}
	return "", exec.ErrNotFound
}

// isNative says whether the file a command resolves to is an executable
// of this machine, not a script.
func isNative(t *testing.T, cmd string) bool {
	t.Helper()
	real, err := filepath.EvalSymlinks(cmd)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.HasPrefix(b, []byte("\x7fELF")) || bytes.HasPrefix(b, []byte{0xcf, 0xfa, 0xed, 0xfe})
}

// With --ignore-scripts, npm runs no install script: the command is the
// launcher, which runs the binary, and works the same.
func TestInstalledWithNpmIgnoringScriptsTheLauncherRunsTheBinary(t *testing.T) {
	r := startRegistry(t)
	u := r.newUser(t)
	dir := t.TempDir()
	u.run(t, dir, "npm", "i", "-g", "--ignore-scripts", "session-hooks")
	cmd, err := lookPathIn(u.path, "session-hooks")
	if err != nil || isNative(t, cmd) {
		t.Fatalf("with --ignore-scripts, the command (%s, %v) is not the launcher", cmd, err)
	}
	contains(t, "session-hooks version through the launcher", u.run(t, dir, "session-hooks", "version"), "session-hooks version")
	t.Logf("init through the launcher: %s; the binary: %s", hookTime(t, cmd, dir), hookTime(t, hooksBin, dir))
	// install and doctor say what each hook then costs.
	u.run(t, dir, "git", "init", "-q")
	contains(t, "install through the launcher", u.run(t, dir, "session-hooks", "install"), "starts Node.js before the binary")
	contains(t, "doctor through the launcher", u.run(t, dir, "session-hooks", "doctor"), "note: the client runs npm's launcher")
}

// hookTime is the median wall time of 7 session starts run by bin in dir
// (no payload, no log), alternating with nothing else.
func hookTime(t *testing.T, bin, dir string) time.Duration {
	t.Helper()
	var times []time.Duration
	for range 7 {
		cmd := exec.Command(bin, "init")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "SESSION_HOOKS_NO_LOG=1")
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s init: %v\n%s", bin, err, out)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times[len(times)/2]
}
