package gitdiag

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/session-hooks/session-hooks/internal/atomicfile"
	"github.com/session-hooks/session-hooks/internal/safefile"
)

// The diff stat against the upstream is the one part of a session start
// that reads blobs: on a branch 30 commits ahead it costs more than the
// whole status walk. Between two starts it rarely changes, and when its
// inputs are the same its answer is the same: the merge base and HEAD
// (their trees and blobs are named by their hashes), the rename and
// algorithm settings, and the diff driver of each changed path (binary or
// text, from the attributes files and diff.<driver>.binary). The cache
// keeps, per repository, the last result with those inputs, each path's
// driver answer included; a result is used again only when every one of
// them answers the same now. It lives in the user's cache directory,
// never in the repository, whose files are not to be trusted.

// diffStatCacheVersion changes when what DiffStat computes does.
const diffStatCacheVersion = 1

// maxDiffStatCache bounds a cache file read back.
const maxDiffStatCache = 4 << 20

type diffStatEntry struct {
	Version int            `json:"version"`
	Key     string         `json:"key"`
	Drivers map[string]int `json:"drivers"` // path → diffDriverBinary's answer when computed
	Stats   []FileStat     `json:"stats"`
}

// diffStatKey names the inputs that hashes and settings fix.
func (r *Repo) diffStatKey(base, head plumbing.Hash) string {
	rs := renameSettingsFor(r.cfg, false)
	return fmt.Sprintf("%s %s renames=%v/%d algorithm=%s", base, head, rs.on, rs.limit, strings.ToLower(r.cfg.Get("diff.algorithm")))
}

// diffStatCachePath is the work tree's cache file, "" without a cache.
// One per work tree, not per repository: agents in parallel worktrees, the
// usual layout, each have a HEAD of their own, and one file shared by all
// had each start evict the others' result (a start after another
// worktree's cost 1.6 times one after its own).
func (r *Repo) diffStatCachePath() string {
	if r.CacheDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(r.GitDir))
	return filepath.Join(r.CacheDir, "diffstat-"+hex.EncodeToString(sum[:12])+".json")
}

// cachedDiffStat is the cached result for key when every path's diff
// driver answers as it did.
func (r *Repo) cachedDiffStat(key string, driver func(string) int) ([]FileStat, bool) {
	path := r.diffStatCachePath()
	if path == "" {
		return nil, false
	}
	b, err := safefile.Read(path, maxDiffStatCache)
	if err != nil {
		return nil, false
	}
	var e diffStatEntry
	if json.Unmarshal(b, &e) != nil || e.Version != diffStatCacheVersion || e.Key != key {
		return nil, false
	}
	for p, want := range e.Drivers {
		if driver(p) != want {
			return nil, false
		}
	}
	return e.Stats, true
}

// keepDiffStat writes the result; a failure only costs the next run time.
func (r *Repo) keepDiffStat(key string, drivers map[string]int, stats []FileStat) {
	path := r.diffStatCachePath()
	if path == "" {
		return
	}
	b, err := json.Marshal(diffStatEntry{Version: diffStatCacheVersion, Key: key, Drivers: drivers, Stats: stats})
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o700) == nil && atomicfile.Write(path, b, atomicfile.Options{Perm: 0o600}) == nil {
		pruneDiffStats(filepath.Dir(path), maxDiffStatFiles)
	}
}

// maxDiffStatFiles bounds the cache: one file per work tree, the most
// recently written kept.
const maxDiffStatFiles = 64

// pruneDiffStats removes the oldest cache files past keep.
func pruneDiffStats(dir string, keep int) {
	files, _ := filepath.Glob(filepath.Join(dir, "diffstat-*.json"))
	if len(files) <= keep {
		return
	}
	type aged struct {
		path string
		mod  int64
	}
	var all []aged
	for _, f := range files {
		if fi, err := os.Lstat(f); err == nil {
			all = append(all, aged{f, fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].mod > all[j].mod })
	for _, a := range all[min(keep, len(all)):] {
		os.Remove(a.path)
	}
}

// recordingDriver is driver remembering each path's answer, for the cache.
func recordingDriver(driver func(string) int) (func(string) int, map[string]int) {
	var mu sync.Mutex
	seen := map[string]int{}
	return func(p string) int {
		mu.Lock()
		defer mu.Unlock()
		if v, ok := seen[p]; ok {
			return v
		}
		v := driver(p)
		seen[p] = v
		return v
	}, seen
}
