package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/session-hooks/session-hooks/hooks/eventtable"
	"github.com/session-hooks/session-hooks/internal/testenv"
	"github.com/session-hooks/session-hooks/scripts/internal/goreleaser"
)

// release is a goreleaser output for the tests: archives of the given
// platforms ("linux/amd64"), each holding a binary whose bytes name it,
// with checksums.txt, artifacts.json and metadata.json.
func release(t *testing.T, version string, targets ...string) string {
	t.Helper()
	dist := t.TempDir()
	var artifacts []goreleaser.Artifact
	var sums strings.Builder
	for _, target := range targets {
		goos, goarch, _ := strings.Cut(target, "/")
		name := fmt.Sprintf("session-hooks_%s_%s_%s", version, goos, goarch)
		files := map[string][]byte{"LICENSE": []byte("MIT\n"), "README.md": []byte("# session-hooks\n")}
		if goos == "windows" {
			name += ".zip"
			files["session-hooks.exe"] = []byte("binary " + target)
		} else {
			name += ".tar.gz"
			files["session-hooks"] = []byte("binary " + target)
		}
		data := archive(t, name, files)
		os.WriteFile(filepath.Join(dist, name), data, 0o644)
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(data), name)
		artifacts = append(artifacts,
			goreleaser.Artifact{Name: name, Path: filepath.Join(dist, name), Goos: goos, Goarch: goarch, Type: "Archive"},
			goreleaser.Artifact{Name: "session-hooks", Path: filepath.Join(dist, "bin-"+goos+goarch), Goos: goos, Goarch: goarch, Type: "Binary"})
	}
	os.WriteFile(filepath.Join(dist, "checksums.txt"), []byte(sums.String()), 0o644)
	b, _ := json.Marshal(artifacts)
	os.WriteFile(filepath.Join(dist, "artifacts.json"), b, 0o644)
	os.WriteFile(filepath.Join(dist, "metadata.json"), []byte(`{"project_name":"session-hooks","version":"`+version+`"}`), 0o644)
	return dist
}

// archive is a .tar.gz or a .zip of files, as goreleaser lays them out.
func archive(t *testing.T, name string, files map[string][]byte) []byte {
	var buf bytes.Buffer
	if strings.HasSuffix(name, ".zip") {
		zw := zip.NewWriter(&buf)
		for n, b := range files {
			w, _ := zw.Create(n)
			w.Write(b)
		}
		zw.Close()
		return buf.Bytes()
	}
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for n, b := range files {
		tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func launcher(t *testing.T) string {
	p, _ := filepath.Abs("../../npm/session-hooks.js")
	return p
}

func readJSON(t *testing.T, file string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

// Each platform's package holds the binary of its archive, executable,
// named for npm's os and cpu; the session-hooks package runs it and lists
// every platform's package at the release's version.
func TestThePackagesHoldTheReleasedBinaries(t *testing.T) {
	dist := release(t, "1.2.3", "linux/amd64", "windows/arm64")
	out := filepath.Join(t.TempDir(), "npm")
	if err := run(dist, out, launcher(t), []string{"linux-x64", "win32-arm64"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, exe, content, os, cpu string }{
		{"linux-x64", "session-hooks", "binary linux/amd64", "linux", "x64"},
		{"win32-arm64", "session-hooks.exe", "binary windows/arm64", "win32", "arm64"},
	} {
		b, err := os.ReadFile(filepath.Join(out, tt.dir, "bin", tt.exe))
		if err != nil || string(b) != tt.content {
			t.Errorf("%s: %q (%v), want the archive's binary", tt.dir, b, err)
		}
		if fi, err := os.Stat(filepath.Join(out, tt.dir, "bin", tt.exe)); err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: the binary is not executable (%v)", tt.dir, err)
		}
		pkg := readJSON(t, filepath.Join(out, tt.dir, "package.json"))
		if pkg["name"] != "@session-hooks/"+tt.dir || pkg["version"] != "1.2.3" ||
			fmt.Sprint(pkg["os"]) != "["+tt.os+"]" || fmt.Sprint(pkg["cpu"]) != "["+tt.cpu+"]" {
			t.Errorf("%s: package.json %v", tt.dir, pkg)
		}
		if _, ok := pkg["scripts"]; ok {
			t.Errorf("%s: a package with scripts breaks --ignore-scripts installs", tt.dir)
		}
	}
	wrapper := readJSON(t, filepath.Join(out, "session-hooks", "package.json"))
	if wrapper["name"] != "session-hooks" || wrapper["version"] != "1.2.3" {
		t.Errorf("session-hooks: package.json %v", wrapper)
	}
	if got := fmt.Sprint(wrapper["optionalDependencies"]); got != "map[@session-hooks/linux-x64:1.2.3 @session-hooks/win32-arm64:1.2.3]" {
		t.Errorf("optionalDependencies %s", got)
	}
	// npm search shows the description: it names every client served.
	if d := fmt.Sprint(wrapper["description"]); !strings.Contains(d, "GitHub Copilot CLI") || !strings.Contains(d, "Qwen Code") {
		t.Errorf("description %q leaves out a client", d)
	}
	if got := fmt.Sprint(wrapper["bin"]); got != "map[session-hooks:bin/session-hooks.js]" {
		t.Errorf("bin %s", got)
	}
	// One script, which only puts the binary in the launcher's place: the
	// package works without it (--ignore-scripts).
	if got := fmt.Sprint(wrapper["scripts"]); got != "map[postinstall:node bin/postinstall.js]" {
		t.Errorf("scripts %s", got)
	}
	post, _ := os.ReadFile(filepath.Join(out, "session-hooks", "bin", "postinstall.js"))
	ownPost, _ := os.ReadFile(filepath.Join(filepath.Dir(launcher(t)), "postinstall.js"))
	if len(post) == 0 || !bytes.Equal(post, ownPost) {
		t.Error("session-hooks: its install script is not npm/postinstall.js")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "session-hooks", "package.json")); !strings.Contains(string(b), `"node": ">=18"`) {
		t.Errorf("package.json is not written as npm writes it:\n%s", b)
	}
	js, _ := os.ReadFile(filepath.Join(out, "session-hooks", "bin", "session-hooks.js"))
	own, _ := os.ReadFile(launcher(t))
	if !bytes.Equal(js, own) {
		t.Error("session-hooks: its command is not npm/session-hooks.js")
	}
	for _, f := range []string{"session-hooks/README.md", "session-hooks/LICENSE", "linux-x64/LICENSE"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// What is not the release is refused, with the reason: an archive whose
// bytes are not those checksums.txt names, an archive checksums.txt does
// not name, a platform missing, a version npm does not take.
func TestWhatIsNotTheReleaseIsRefused(t *testing.T) {
	tests := []struct {
		name   string
		spoil  func(dist string)
		only   []string
		wantIn string
	}{
		{"an archive changed after its checksum", func(dist string) {
			f, _ := os.OpenFile(filepath.Join(dist, "session-hooks_1.2.3_linux_amd64.tar.gz"), os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte("x"))
			f.Close()
		}, []string{"linux-x64"}, "checksums.txt says"},
		{"an archive checksums.txt does not name", func(dist string) {
			os.WriteFile(filepath.Join(dist, "checksums.txt"), nil, 0o644)
		}, []string{"linux-x64"}, "is not in checksums.txt"},
		{"a platform missing from a whole release", func(string) {}, nil, "no archive for linux/arm64"},
		{"a platform that is not one", func(string) {}, []string{"linux-386"}, `"linux-386" is not one of`},
		{"a version npm does not take", func(dist string) {
			os.WriteFile(filepath.Join(dist, "metadata.json"), []byte(`{"version":"v1.2"}`), 0o644)
		}, []string{"linux-x64"}, `version "v1.2" is not one npm takes`},
		{"a checksum line that is not one", func(dist string) {
			b, _ := os.ReadFile(filepath.Join(dist, "checksums.txt"))
			os.WriteFile(filepath.Join(dist, "checksums.txt"), append(b, "abc\n"...), 0o644)
		}, []string{"linux-x64"}, "checksums.txt:2: not a sha256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dist := release(t, "1.2.3", "linux/amd64")
			tt.spoil(dist)
			err := run(dist, filepath.Join(t.TempDir(), "npm"), launcher(t), tt.only, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("got %v, want an error saying %q", err, tt.wantIn)
			}
		})
	}
}

// The session-hooks command runs this machine's binary with the arguments,
// standard input and exit code it was given; without the platform's
// package it says what to do, on stderr, and exits 1.
func TestTheCommandRunsThisMachinesBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in binary is a shell script")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Need(t, "node", err)
		return
	}
	name := map[string]string{"linux": "linux", "darwin": "darwin"}[runtime.GOOS] + "-" +
		map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	modules := filepath.Join(t.TempDir(), "node_modules")
	wrapper := filepath.Join(modules, "session-hooks", "bin", "session-hooks.js")
	os.MkdirAll(filepath.Dir(wrapper), 0o755)
	js, _ := os.ReadFile(launcher(t))
	os.WriteFile(wrapper, js, 0o755)
	run := func(stdin string, args ...string) (string, string, int) {
		cmd := exec.Command(node, append([]string{wrapper}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	if out, errOut, code := run("", "status"); code != 1 || out != "" ||
		!strings.Contains(errOut, "@session-hooks/"+name+", which holds the binary for this machine, is not installed") {
		t.Errorf("status without the platform's package: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A hook keeps the hook's contract: exit 0, nothing on stderr.
	for _, hook := range [][]string{{"init", "--timeout", "2s"}, {"--agent", "codex", "end"}, {"--agent=gemini", "pre-compact"}} {
		if out, errOut, code := run("", hook...); code != 0 || out != "" || errOut != "" {
			t.Errorf("%v without the platform's package: exit %d, stdout %q, stderr %q", hook, code, out, errOut)
		}
	}
	pkg := filepath.Join(modules, "@session-hooks", name)
	os.MkdirAll(filepath.Join(pkg, "bin"), 0o755)
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@session-hooks/`+name+`","version":"1.2.3"}`), 0o644)
	os.WriteFile(filepath.Join(pkg, "bin", "session-hooks"), []byte("#!/bin/sh\necho \"args: $*\"\necho \"stdin: $(cat)\"\nexit 3\n"), 0o755)
	out, errOut, code := run(`{"session_id":"s"}`, "init", "--timeout", "2s")
	if code != 3 || out != "args: init --timeout 2s\nstdin: {\"session_id\":\"s\"}\n" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// The plugin's package.json depends on session-hooks at the release's
// version exactly, and runs nothing.
func TestThePluginDependsOnThisRelease(t *testing.T) {
	dist := release(t, "1.2.3", "linux/amd64")
	plugin := t.TempDir()
	if err := pluginPackage(plugin, dist); err != nil {
		t.Fatal(err)
	}
	pkg := readJSON(t, filepath.Join(plugin, "package.json"))
	if got := fmt.Sprint(pkg["dependencies"]); got != "map[session-hooks:1.2.3]" || pkg["private"] != true {
		t.Errorf("package.json %v", pkg)
	}
	if _, ok := pkg["scripts"]; ok {
		t.Error("the plugin's package.json has scripts")
	}
}

// A file of the archive is taken whole up to the bound, and refused past
// it (never cut short); what was made is said, one line per package.
func TestABinaryIsTakenWholeUpToTheBound(t *testing.T) {
	defer func(n int) { maxBinary = n }(maxBinary)
	maxBinary = len("binary linux/amd64")
	dist := release(t, "1.2.3", "linux/amd64")
	out := filepath.Join(t.TempDir(), "npm")
	var said strings.Builder
	if err := run(dist, out, launcher(t), []string{"linux-x64"}, &said); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "linux-x64", "bin", "session-hooks")); string(b) != "binary linux/amd64" {
		t.Errorf("a binary of exactly the bound became %q", b)
	}
	if said.String() != "@session-hooks/linux-x64@1.2.3 from session-hooks_1.2.3_linux_amd64.tar.gz\nsession-hooks@1.2.3\n" {
		t.Errorf("said %q", said.String())
	}
	maxBinary--
	err := run(dist, out, launcher(t), []string{"linux-x64"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "session-hooks is over") {
		t.Errorf("a binary one byte over the bound: %v", err)
	}
}

// The command's list of hook subcommands is the event table's: a hook it
// did not know would break the hook's contract when its binary is missing.
func TestTheCommandKnowsEveryHook(t *testing.T) {
	js, err := os.ReadFile(launcher(t))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const hooks = \[([^\]]*)\];`).FindSubmatch(js)
	if m == nil {
		t.Fatal("npm/session-hooks.js has no hooks list")
	}
	var listed []string
	for _, q := range strings.Split(string(m[1]), ",") {
		listed = append(listed, strings.Trim(strings.TrimSpace(q), "'"))
	}
	if !slices.Equal(listed, eventtable.Commands()) {
		t.Errorf("npm/session-hooks.js lists the hooks %q; the event table's are %q", listed, eventtable.Commands())
	}
}
