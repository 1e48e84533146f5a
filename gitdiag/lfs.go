package gitdiag

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

// Git LFS is the one clean filter gitdiag applies itself: git would run
// `git lfs clean` (or its filter-process), which stores the content aside
// and hands git a small pointer to it. gitdiag computes the same pointer
// without storing anything, so a large file whose stat data changed is
// compared by the pointer git would compare.

// lfsPointerMax is git-lfs's blobSizeCutoff: only content shorter than this
// can be taken for a pointer already.
const lfsPointerMax = 1024

// lfsVersions are the version lines git-lfs accepts in a pointer.
var lfsVersions = []string{
	"https://git-lfs.github.com/spec/v1",
	"https://hawser.github.com/spec/v1",
	"http://git-media.io/v/2",
}

// isLFSFilter says whether a filter driver's commands are git-lfs's own.
func (r *Repo) isLFSFilter(driver string) bool {
	for key, sub := range map[string]string{"process": "filter-process", "clean": "clean"} {
		f := strings.Fields(r.cfg.getSub("filter", driver, key))
		if len(f) >= 2 && (f[0] == "git-lfs" || strings.HasSuffix(f[0], "/git-lfs")) && f[1] == sub {
			return true
		}
	}
	return false
}

// lfsExtensions says whether git-lfs extensions (lfs.extension.*) are
// configured: they run programs of their own, which gitdiag cannot.
func (r *Repo) lfsExtensions() bool {
	for key := range r.cfg.values {
		if strings.HasPrefix(key, "lfs.extension.") {
			return true
		}
	}
	return false
}

// lfsClean returns what `git lfs clean` writes for the content read from
// r: content that already is a pointer as it is, anything else as a pointer
// to its SHA-256. Memory stays bounded whatever the size of the file.
func lfsClean(r io.Reader) ([]byte, error) {
	head := make([]byte, lfsPointerMax)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if n == 0 || isLFSPointer(bytes.TrimSpace(head)) {
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
	return fmt.Appendf(nil, "version %s\noid sha256:%x\nsize %d\n", lfsVersions[0], h.Sum(nil), int64(n)+rest), nil
}

// isLFSPointer is git-lfs's pointer decoder (decodeKV) as a yes or no:
// "version", "oid" and "size" lines in that order, "ext-N-name" lines
// anywhere before size, blank lines skipped, nothing after.
func isLFSPointer(data []byte) bool {
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
			priority, ok := lfsExtensionPriority(key)
			if !ok || priorities[priority] || !validLFSOid(value) {
				return false
			}
			priorities[priority] = true
			continue
		}
		values[key] = value
		line++
	}
	size, err := strconv.ParseInt(values["size"], 10, 64)
	return line == len(keys) && slices.Contains(lfsVersions, values["version"]) &&
		validLFSOid(values["oid"]) && err == nil && size >= 0
}

// lfsExtensionPriority reads an "ext-<digit>-<name>" key.
func lfsExtensionPriority(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "ext-")
	if !ok || len(rest) < 3 || rest[0] < '0' || rest[0] > '9' || rest[1] != '-' || !isWordChar(rest[2]) {
		return "", false
	}
	return rest[:1], true
}

func isWordChar(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '_' }

// validLFSOid accepts "sha256:" and 64 lowercase hexadecimal digits.
func validLFSOid(v string) bool {
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
