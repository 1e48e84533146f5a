package lfs

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// pointerMax is git-lfs's blobSizeCutoff: only content shorter than this
// can be taken for a pointer already.
const pointerMax = 1024

// versions are the version lines git-lfs accepts in a pointer.
var versions = []string{
	"https://git-lfs.github.com/spec/v1",
	"https://hawser.github.com/spec/v1",
	"http://git-media.io/v/2",
}

// Clean returns what `git lfs clean` writes for the content read from
// r: content that already is a pointer as it is, anything else as a pointer
// to its SHA-256. Memory stays bounded whatever the size of the file.
func Clean(r io.Reader) ([]byte, error) {
	head := make([]byte, pointerMax)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if n == 0 || IsPointer(bytes.TrimSpace(head)) {
			return head, nil
		}
	case err != nil:
		return nil, err
	}
	h := sha256.New()
	h.Write(head)
	rest, err := io.Copy(h, r)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "version %s\noid sha256:%x\nsize %d\n", versions[0], h.Sum(nil), int64(n)+rest), nil
}

// IsPointer is git-lfs's pointer decoder (decodeKV) as a yes or no:
// "version", "oid" and "size" lines in that order, "ext-N-name" lines
// anywhere before size, blank lines skipped, nothing after.
func IsPointer(data []byte) bool {
	keys := []string{"version", "oid", "size"}
	values := map[string]string{}
	priorities := map[string]bool{}
	line := 0
	for _, text := range strings.Split(string(data), "\n") {
		text = strings.TrimSuffix(text, "\r")
		if text == "" {
			continue
		}
		key, value, ok := strings.Cut(text, " ")
		if !ok || line >= len(keys) {
			return false
		}
		if key != keys[line] {
			priority, ok := extensionPriority(key)
			if !ok || priorities[priority] || !validOid(value) {
				return false
			}
			priorities[priority] = true
			continue
		}
		values[key] = value
		line++
	}
	size, err := strconv.ParseInt(values["size"], 10, 64)
	return line == len(keys) && slices.Contains(versions, values["version"]) &&
		validOid(values["oid"]) && err == nil && size >= 0
}

// extensionPriority reads an "ext-<digit>-<name>" key.
func extensionPriority(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "ext-")
	if !ok || len(rest) < 3 || rest[0] < '0' || rest[0] > '9' || rest[1] != '-' || !isWordChar(rest[2]) {
		return "", false
	}
	return rest[:1], true
}

func isWordChar(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// validOid accepts "sha256:" and 64 lowercase hexadecimal digits.
func validOid(v string) bool {
	hex, ok := strings.CutPrefix(v, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
