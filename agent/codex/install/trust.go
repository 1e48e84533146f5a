package install

import (
	"bufio"
	"context"

	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Handler is one hook handler as Codex lists it: its trust key
// ("<hooks.json>:<event in snake_case>:<group>:<handler>"), its command,
// the hash Codex trusts it by, and whether it does.
type Handler struct {
	Key, Command, CurrentHash, TrustStatus string
}

// ListHandlers asks Codex itself which hook handlers it sees and their
// hashes: `codex app-server` answers JSON-RPC on stdin and stdout
// (initialize, then hooks/list). The hash changes with the handler's
// definition, so only Codex can say it.
func ListHandlers(ctx context.Context, codexBin, codexHome, cwd string) ([]Handler, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, codexBin, "app-server")
	cmd.Env = append(os.Environ(), "CODEX_HOME="+codexHome)
	cmd.Dir = cwd
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run %s app-server: %v", codexBin, err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"session-hooks","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{}}`,
	} {
		if _, err := io.WriteString(stdin, m+"\n"); err != nil {
			return nil, err
		}
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if gjson.GetBytes(line, "id").Int() != 2 {
			continue
		}
		if e := gjson.GetBytes(line, "error"); e.Exists() {
			return nil, fmt.Errorf("codex app-server: hooks/list: %s", e.Get("message").String())
		}
		var out []Handler
		for _, d := range gjson.GetBytes(line, "result.data").Array() {
			for _, h := range d.Get("hooks").Array() {
				out = append(out, Handler{Key: h.Get("key").String(), Command: h.Get("command").String(),
					CurrentHash: h.Get("currentHash").String(), TrustStatus: h.Get("trustStatus").String()})
			}
		}
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("codex app-server did not answer hooks/list: %v", err)
	}
	return nil, errors.New("codex app-server exited without answering hooks/list")
}

// Key is the trust key Codex gives the handler at (group, index) of event
// in the hooks file at path.
func Key(path, event string, group, index int) string {
	return fmt.Sprintf("%s:%s:%d:%d", path, snake(event), group, index)
}

// snake is an event's name in snake_case: SessionStart → session_start.
func snake(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// header is the config.toml table of a trust key.
func header(key string) string {
	return "[hooks.state." + tomlString(key) + "]"
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// SetTrust returns config with a table per key trusting its hash: an
// existing table of the key has its trusted_hash replaced, the others are
// appended. Every other byte stays.
func SetTrust(config []byte, hashes map[string]string, keys []string) []byte {
	lines := strings.SplitAfter(string(config), "\n")
	for _, key := range keys {
		h := header(key)
		entry := "trusted_hash = " + tomlString(hashes[key]) + "\n"
		start := indexOfLine(lines, h)
		if start < 0 {
			if n := len(lines); n > 0 && lines[n-1] != "" && !strings.HasSuffix(lines[n-1], "\n") {
				lines[n-1] += "\n"
			}
			lines = append(lines, "\n", h+"\n", entry)
			continue
		}
		end := tableEnd(lines, start)
		replaced := false
		for i := start + 1; i < end; i++ {
			if k, _, ok := strings.Cut(lines[i], "="); ok && strings.TrimSpace(k) == "trusted_hash" {
				lines[i], replaced = entry, true
			}
		}
		if !replaced {
			lines = append(lines[:start+1], append([]string{entry}, lines[start+1:]...)...)
		}
	}
	return []byte(strings.Join(lines, ""))
}

// RemoveTrust returns config without the tables of keys.
func RemoveTrust(config []byte, keys []string) []byte {
	lines := strings.SplitAfter(string(config), "\n")
	for _, key := range keys {
		start := indexOfLine(lines, header(key))
		if start < 0 {
			continue
		}
		end := tableEnd(lines, start)
		// At the end of the file, the blank line before the table goes
		// with it (SetTrust writes one); inside, the table's own last
		// blank line goes, and the one before stays.
		if end == len(lines) && start > 0 && blank(lines[start-1]) {
			start--
		}
		lines = append(lines[:start], lines[end:]...)
	}
	return []byte(strings.Join(lines, ""))
}

// RenameTrust returns config with the table of each key in from renamed
// to the key at the same place in to, in that order: when uninstall
// takes our entries out, the user's hooks after them move up a group,
// and their trust must follow them (Codex keys it by place).
func RenameTrust(config []byte, from, to []string) []byte {
	lines := strings.SplitAfter(string(config), "\n")
	for i := range from {
		if from[i] == to[i] {
			continue
		}
		if at := indexOfLine(lines, header(from[i])); at >= 0 {
			lines[at] = strings.Replace(lines[at], strings.TrimSpace(lines[at]), header(to[i]), 1)
		}
	}
	return []byte(strings.Join(lines, ""))
}

func blank(line string) bool { return strings.TrimSpace(line) == "" }

func indexOfLine(lines []string, line string) int {
	for i, l := range lines {
		if strings.TrimSpace(l) == line {
			return i
		}
	}
	return -1
}

// tableEnd is the index of the line after the table that starts at start.
func tableEnd(lines []string, start int) int {
	for i := start + 1; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "[") {
			return i
		}
	}
	return len(lines)
}
