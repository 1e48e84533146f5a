package logs

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// CheckpointsDir holds the last pre-compaction snapshots, one file each.
const CheckpointsDir = "checkpoints"

// KeepCheckpoint files a snapshot as one of the last keep checkpoints,
// named by time and session so that they sort oldest first, and prunes
// the older ones. keep <= 0 keeps none and writes nothing.
func (d Dir) KeepCheckpoint(at time.Time, session, text string, keep int) error {
	if keep <= 0 {
		return nil
	}
	name := filepath.Join(CheckpointsDir, at.UTC().Format("20060102T150405.000Z")+"-"+SafeName(session)+".md")
	if err := d.Write(name, []byte(text)); err != nil {
		return err
	}
	dir := filepath.Join(d.Path, CheckpointsDir)
	entries, err := d.ReadDir(CheckpointsDir)
	if err != nil {
		return nil // written; pruning waits for the next one
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, old := range names[:max(0, len(names)-keep)] {
		os.Remove(filepath.Join(dir, old))
	}
	return nil
}
