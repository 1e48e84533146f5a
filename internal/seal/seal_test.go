package seal

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	dir, _ := os.MkdirTemp("", "seal-test")
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestASealedJSONObjectOpensToItsBytesAndStaysJSON(t *testing.T) {
	// A member of the object's own that looks like a seal: the seal is the
	// last one.
	lookalike := `{"a": 1, "seal": "hmac-sha256:` + strings.Repeat("0", 64) + `", "n": 1}`
	for _, body := range []string{"{\n  \"a\": 1,\n  \"b\": [\"x\"]\n}\n", `{"a":"b"}`, "{\"a\": {\"seal\": 1}}\n", lookalike} {
		sealed, err := JSON("sessions/s/handoff.json", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(sealed) {
			t.Fatalf("sealed %q is not JSON: %s", body, sealed)
		}
		got, err := OpenJSON("sessions/s/handoff.json", sealed)
		if err != nil || string(got) != body {
			t.Errorf("OpenJSON(%s) = %q, %v; want %q", sealed, got, err, body)
		}
	}
}

func TestASealedTextOpensToItsBytes(t *testing.T) {
	for body, want := range map[string]string{"# snapshot\n\nline\n": "# snapshot\n\nline\n", "": "", "no final newline": "no final newline\n"} {
		sealed, err := Text("pre-compact-state.md", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		got, err := OpenText("pre-compact-state.md", sealed)
		if err != nil || string(got) != want {
			t.Errorf("OpenText(Text(%q)) = %q, %v; want %q", body, got, err, want)
		}
	}
}

func TestAFileThatDoesNotProveItsWriterIsRefused(t *testing.T) {
	body := []byte("{\n  \"last_prompt\": \"run the deploy\"\n}\n")
	sealed, _ := JSON("a.json", body)
	text, _ := Text("a.md", []byte("# x\n"))
	forged := bytes.Replace(sealed, []byte("hmac-sha256:"), []byte("hmac-sha256:0"), 1)
	forged = append(forged[:bytes.Index(forged, []byte("hmac-sha256:"))+12], append(bytes.Repeat([]byte("0"), 64), forged[bytes.Index(forged, []byte("hmac-sha256:"))+77:]...)...)
	tests := []struct {
		name string
		open func() ([]byte, error)
	}{
		{"no seal (committed, or written by hand)", func() ([]byte, error) { return OpenJSON("a.json", body) }},
		{"a changed member", func() ([]byte, error) {
			return OpenJSON("a.json", bytes.Replace(sealed, []byte("deploy"), []byte("delete"), 1))
		}},
		{"a forged MAC", func() ([]byte, error) { return OpenJSON("a.json", forged) }},
		{"moved to another name", func() ([]byte, error) { return OpenJSON("b.json", sealed) }},
		{"text without a seal", func() ([]byte, error) { return OpenText("a.md", []byte("# x\n")) }},
		{"text with lines added after the seal", func() ([]byte, error) {
			return OpenText("a.md", append(append([]byte(nil), text...), "obey\n"...))
		}},
		{"text with lines added before", func() ([]byte, error) { return OpenText("a.md", append([]byte("obey\n"), text...)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := tt.open(); !errors.Is(err, ErrNotSealed) {
				t.Errorf("opened as %q, %v; want ErrNotSealed", got, err)
			}
		})
	}
}

func TestTheKeyIsCreatedPrivateAndReused(t *testing.T) {
	path, _ := KeyPath()
	a, err := key()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != keySize {
		t.Fatalf("key %s: %v %v", path, fi.Mode(), err)
	}
	if b, _ := readKey(path); !bytes.Equal(a, b) {
		t.Errorf("the key read back differs")
	}
}

func TestAKeyOthersCanReadIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("mode bits say nothing on Windows")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "key")
	os.WriteFile(p, bytes.Repeat([]byte{1}, keySize), 0o600)
	// Every bit that lets anyone but the user in, alone.
	for _, mode := range []os.FileMode{0o640, 0o620, 0o610, 0o604, 0o602, 0o601, 0o644} {
		os.Chmod(p, mode)
		if _, err := readKey(p); err == nil {
			t.Errorf("a key of mode %o was accepted", mode)
		}
	}
	os.Chmod(p, 0o600)
	if _, err := readKey(p); err != nil {
		t.Errorf("a key of mode 600: %v", err)
	}
	os.Symlink(p, filepath.Join(dir, "link"))
	if _, err := readKey(filepath.Join(dir, "link")); err == nil {
		t.Errorf("a linked key was accepted")
	}
}

func TestAKeyInAFolderOthersCanWriteToIsNotUsed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("mode bits say nothing on Windows")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(dir, 0o700)
	p := filepath.Join(dir, "key")
	os.WriteFile(p, bytes.Repeat([]byte{1}, keySize), 0o600)
	// A folder its group or others can write to, by each bit alone: the
	// key could be replaced there.
	for _, mode := range []os.FileMode{0o770, 0o720, 0o707, 0o702, 0o777} {
		os.Chmod(dir, mode)
		if _, err := readKey(p); err == nil || !strings.Contains(err.Error(), "nobody else can write to") {
			t.Errorf("a key in a folder of mode %o: %v", mode, err)
		}
	}
	// Reading and entering it is not writing to it.
	for _, mode := range []os.FileMode{0o700, 0o750, 0o755, 0o705} {
		os.Chmod(dir, mode)
		if _, err := readKey(p); err != nil {
			t.Errorf("a key in a folder of mode %o: %v", mode, err)
		}
	}
}
