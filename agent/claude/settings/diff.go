package settings

import "github.com/rogpeppe/go-internal/diff"

// UnifiedDiff shows the change from old to new as a unified diff that
// patch(1) applies, for install --dry-run: go-internal's anchored diff,
// which marks a last line without a newline as diff -u does.
func UnifiedDiff(name string, old, new []byte) string {
	return string(diff.Diff(name, old, name+" (after install)", new))
}
