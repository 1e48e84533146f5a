package install

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/install/backup"
	"github.com/session-hooks/session-hooks/install/hookfile"
)

// EditSettings applies change to the settings file at path, as the
// installs of the clients with Claude-nested settings edit theirs: the
// file read as a settings file; a refused change leaves it untouched; no
// change, or a dry run (the change shown as a diff), writes nothing; a
// file install created that now holds nothing (once ownBookkeeping takes
// out what the client writes there itself; nil when it writes nothing) is
// removed, with the folder install made for it when that is left empty;
// anything else is saved within the folder that holds the client's
// (the project, or the home), its previous version kept.
func EditSettings(path string, out io.Writer, dryRun bool, change func([]byte) (hookfile.Result, error), ownBookkeeping func([]byte) []byte) error {
	doc, err := hookfile.ReadFile(path)
	if err != nil {
		return err
	}
	res, err := change(doc)
	if err != nil {
		return fmt.Errorf("cannot edit %s: %v. The file is left untouched.", path, err)
	}
	if !res.Changed {
		fmt.Fprintf(out, "%s needs no change.\n", path)
		return nil
	}
	if dryRun {
		ShowChange(out, path, doc, res.JSON)
		return nil
	}
	left := res.JSON
	if ownBookkeeping != nil {
		left = ownBookkeeping(left)
	}
	removed, err := backup.RemoveCreated(path, left)
	if err != nil {
		return err
	}
	if removed {
		if dir := filepath.Dir(path); backup.CreatedByInstall(dir) && os.Remove(dir) == nil { // only if empty
			backup.UnmarkCreated(dir)
		}
		fmt.Fprintf(out, "Removed the session-hooks entries (%d), and %s, which install had created and which now held nothing.\n", res.Removed, path)
		return nil
	}
	// A committed folder of the client's that links out of the project is
	// refused.
	kept, err := Save(path, Fence{Root: filepath.Dir(filepath.Dir(path))}, doc, doc != nil, res.JSON, 0o600)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Changed %s:\n  %s\n", path, strings.Join(res.Changes, "\n  "))
	if kept != "" {
		fmt.Fprintf(out, "The previous version is kept as %s.\n", kept)
	}
	return nil
}
