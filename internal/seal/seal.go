// Package seal proves that a file under .claude/logs was written by this
// user's session-hooks. A repository may commit .claude/logs/ (a handoff
// that speaks as "the previous session", a snapshot, a state file), and a
// hook that read it back would put the repository's words in front of the
// model as if they were the user's. Every file a hook reads back carries
// an HMAC-SHA256 under a key only this user can read (created 0600 in the
// user's configuration directory on first use); a file without a valid
// one was not written here, and is ignored.
//
// The MAC covers the name the caller gives (logs.Dir.SealName: the
// project's real path and the file's name below the log directory) and
// the bytes, so a sealed file cannot be moved to stand for another, nor
// copied from another project to stand for this one's.
package seal

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// ErrNotSealed is a file that does not prove it was written by this
// user's session-hooks: written by hand, by an older version, by another
// user, or committed to the repository.
var ErrNotSealed = errors.New("not written by this user's session-hooks (no valid seal)")

const (
	keySize = 32
	// scheme names the MAC, so that a later one can be told apart.
	scheme = "hmac-sha256:"
)

// KeyPath is where the key lives: session-hooks/key in the user's
// configuration directory ($XDG_CONFIG_HOME or ~/.config on Linux).
func KeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "session-hooks", "key"), nil
}

var key = sync.OnceValues(loadKey)

// loadKey reads the key, creating it when there is none. A key that is a
// link, not a regular file, readable by others or of the wrong size is
// refused: a sealing key anyone else could read or choose proves nothing.
func loadKey() ([]byte, error) {
	path, err := KeyPath()
	if err != nil {
		return nil, fmt.Errorf("no configuration directory for the sealing key: %w", err)
	}
	if b, err := readKey(path); !errors.Is(err, fs.ErrNotExist) {
		return b, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the sealing key: %w", err)
	}
	b := make([]byte, keySize)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	// Written aside, then linked into place: a hook starting beside this
	// one sees no key or the whole key, and the first to link wins.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".key-*")
	if err != nil {
		return nil, fmt.Errorf("cannot create the sealing key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("cannot write the sealing key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("cannot create the sealing key: %w", err)
	}
	return readKey(path)
}

func readKey(path string) ([]byte, error) {
	// A key in a folder others may write to proves nothing: they could
	// have put their own there, or replace it.
	if di, err := os.Lstat(filepath.Dir(path)); err != nil {
		return nil, err
	} else if !di.IsDir() || !privateDir(di) {
		return nil, fmt.Errorf("the sealing key's folder %s must be a folder of yours that nobody else can write to (mode 0700); not using it", filepath.Dir(path))
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() != keySize || !private(fi) {
		return nil, fmt.Errorf("the sealing key %s must be a %d-byte regular file of yours, readable by you only (mode 0600)", path, keySize)
	}
	b, err := os.ReadFile(path)
	if err == nil && len(b) != keySize {
		err = fmt.Errorf("the sealing key %s changed while read", path)
	}
	return b, err
}

func mac(k []byte, name string, body []byte) string {
	h := hmac.New(sha256.New, k)
	h.Write([]byte("session-hooks seal v2\x00")) // v2: the name binds the project
	h.Write([]byte(filepath.ToSlash(name)))
	h.Write([]byte{0})
	h.Write(body)
	return scheme + hex.EncodeToString(h.Sum(nil))
}

// JSON seals a JSON object: its MAC goes in as a last member, "seal".
func JSON(name string, body []byte) ([]byte, error) {
	k, err := key()
	if err != nil {
		return nil, err
	}
	end := bytes.LastIndexByte(body, '}')
	last := len(bytes.TrimRight(body[:max(end, 0)], " \t\r\n"))
	if end < 0 || last == 0 || body[last-1] == '{' {
		return nil, errors.New("seal: not a JSON object with members")
	}
	sep := ","
	if bytes.ContainsRune(body[last:end], '\n') {
		sep = ",\n  "
	}
	field := sep + `"seal": "` + mac(k, name, body) + `"`
	return append(append(append([]byte(nil), body[:last]...), field...), body[last:]...), nil
}

// jsonSeal is compiled on first use: most hook runs open no sealed file,
// and compiling it at start cost each of them 0.05 ms.
var jsonSeal = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`,\s*"seal": "` + scheme + `([0-9a-f]{64})"`)
})

// OpenJSON returns a sealed JSON object as it was before sealing, or
// ErrNotSealed.
//
// The last match is the seal: the object's own strings may hold text that
// looks like one.
func OpenJSON(name string, b []byte) ([]byte, error) {
	locs := jsonSeal().FindAllSubmatchIndex(b, -1)
	if locs == nil {
		return nil, ErrNotSealed
	}
	loc := locs[len(locs)-1]
	body := append(append([]byte(nil), b[:loc[0]]...), b[loc[1]:]...)
	return verify(name, body, scheme+string(b[loc[2]:loc[3]]))
}

const textPrefix = "<!-- session-hooks seal "

// Text seals a text file: its MAC is a last line, an HTML comment that
// markdown viewers do not show.
func Text(name string, body []byte) ([]byte, error) {
	k, err := key()
	if err != nil {
		return nil, err
	}
	if len(body) > 0 && body[len(body)-1] != '\n' {
		body = append(append([]byte(nil), body...), '\n')
	}
	return append(append([]byte(nil), body...), textPrefix+mac(k, name, body)+" -->\n"...), nil
}

// OpenText returns a sealed text file as it was before sealing, or
// ErrNotSealed.
func OpenText(name string, b []byte) ([]byte, error) {
	i := bytes.LastIndex(b, []byte(textPrefix))
	if i < 0 {
		return nil, ErrNotSealed
	}
	body, rest := b[:i], b[i+len(textPrefix):]
	sealed, ok := bytes.CutSuffix(rest, []byte(" -->\n"))
	if !ok {
		return nil, ErrNotSealed // a line after the seal
	}
	return verify(name, body, string(sealed))
}

// verify checks that sealed (scheme and MAC) is body's MAC.
func verify(name string, body []byte, sealed string) ([]byte, error) {
	k, err := key()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotSealed, err)
	}
	if !hmac.Equal([]byte(sealed), []byte(mac(k, name, body))) {
		return nil, ErrNotSealed
	}
	return body, nil
}
