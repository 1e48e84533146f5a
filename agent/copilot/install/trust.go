package install

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/session-hooks/session-hooks/install/hookfile"
	"github.com/tidwall/gjson"
)

// Copilot CLI runs a repository's hooks only in a folder it trusts, and
// says nothing when it does not: `copilot -p` never asks. A folder is
// trusted when config.json in Copilot CLI's folder lists it, or a folder
// above it (trustedFolders; trusted_folders as the docs wrote it, which
// Copilot CLI 1.0.102 rewrites to the other), or when COPILOT_ALLOW_ALL is
// true in Copilot CLI's environment; --allow-all is no trust (seen, 1.0.102).

// Trust is what config.json says of a folder.
type Trust struct {
	Trusted bool
	By      string // the rule that trusts it: a folder of config.json, or COPILOT_ALLOW_ALL
	Config  string // config.json's path
}

// TrustOf reads whether Copilot CLI trusts dir, given its folder home and
// whether COPILOT_ALLOW_ALL is true here.
func TrustOf(dir, home string, allowAll bool) Trust {
	t := Trust{Config: filepath.Join(home, "config.json")}
	if allowAll {
		t.Trusted, t.By = true, "COPILOT_ALLOW_ALL=true"
		return t
	}
	b, err := hookfile.ReadFile(t.Config)
	if err != nil || b == nil {
		return t
	}
	js, err := hookfile.Parse(b)
	if err != nil {
		return t
	}
	for _, key := range []string{"trustedFolders", "trusted_folders"} {
		for _, f := range gjson.GetBytes(js, key).Array() {
			if f.Type == gjson.String && under(dir, f.String()) {
				t.Trusted, t.By = true, f.String()
				return t
			}
		}
	}
	return t
}

// under says whether dir is folder or below it, as written or with links
// resolved.
func under(dir, folder string) bool {
	if !filepath.IsAbs(folder) {
		return false
	}
	for _, d := range []string{dir, realPath(dir)} {
		for _, f := range []string{folder, realPath(folder)} {
			rel, err := filepath.Rel(filepath.Clean(f), d)
			if err == nil && (rel == "." || filepath.IsLocal(rel)) {
				return true
			}
		}
	}
	return false
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// untrustedWarning is status's and doctor's problem with an untrusted
// folder whose repository hooks wire session-hooks.
func untrustedWarning(root string, t Trust) string {
	return fmt.Sprintf("Copilot CLI does not trust %s, so it runs none of the repository's hooks there, silently (copilot -p does not ask): %s", root, howToTrust(root, t))
}

// howToTrust is what install says, and the warning.
func howToTrust(root string, t Trust) string {
	return fmt.Sprintf("start copilot in %s and choose to trust it for future sessions, or add %q to trustedFolders in %s", root, root, t.Config)
}

func allowAll(getenv func(string) string) bool {
	return strings.EqualFold(strings.TrimSpace(getenv("COPILOT_ALLOW_ALL")), "true")
}
