package sanitize

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces each secret Clean finds.
const Redacted = "[REDACTED]"

// Each pattern is compiled on its first use, and used only on text that
// holds one of its hints: compiling them all cost every hook run 0.3 ms
// (counted repetitions such as {64} compile to long programs), and most
// text holds no credential-like word at all.

// secretPattern is a credential's shape, and the words (lower-cased) at
// least one of which every match holds: text without any cannot match.
type secretPattern struct {
	hints []string
	re    func() *regexp.Regexp
}

func secret(expr string, hints ...string) secretPattern {
	return secretPattern{hints: hints, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// mayMatch says whether lower (the text, lower-cased) holds a hint.
func (p secretPattern) mayMatch(lower string) bool {
	for _, h := range p.hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// Credentials that agents paste, print or read into a conversation.
// Whole-token patterns go first; key=value patterns keep the key so the
// text stays readable.
var secrets = []secretPattern{
	// Private key blocks: PEM (RSA, EC, OpenSSH, PKCS#8…) and PGP.
	secret(`-----BEGIN[A-Z ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[A-Z ]*PRIVATE KEY( BLOCK)?-----|$)`, "private key"),
	// Anthropic, then OpenAI (sk-, sk-proj-, sk-svcacct-).
	secret(`sk-ant-[A-Za-z0-9_\-]{8,}`, "sk-ant-"),
	secret(`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`, "sk-"),
	// GitHub (classic and fine-grained), GitLab.
	secret(`(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`, "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
	secret(`glpat-[A-Za-z0-9_\-]{20,}`, "glpat-"),
	// AWS access key ids.
	secret(`(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}`, "akia", "asia", "abia", "acca"),
	// Slack tokens and incoming webhooks.
	secret(`xox[abposre]-[A-Za-z0-9\-]{10,}`, "xox"),
	secret(`xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{32,}`, "xapp-"), // app-level tokens
	secret(`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]+`, "hooks.slack.com/"),
	// Google API keys.
	secret(`AIza[0-9A-Za-z_\-]{35}`, "aiza"),
	// Google OAuth client secrets.
	secret(`GOCSPX-[A-Za-z0-9_\-]{28}`, "gocspx-"),
	// Azure AD (Entra) client secrets, as gitleaks' azure-ad-client-secret.
	secret(`[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}`, "q~"),
	// DigitalOcean and Shopify access tokens.
	secret(`(?:dop|doo|dor)_v1_[a-f0-9]{64}`, "_v1_"),
	secret(`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, "shp"),
	// Stripe secret and restricted keys.
	secret(`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`, "_live_", "_test_"),
	// npm, PyPI, Hugging Face.
	secret(`npm_[A-Za-z0-9]{36}`, "npm_"),
	secret(`pypi-AgE[A-Za-z0-9_\-]{50,}`, "pypi-age"),
	secret(`hf_[A-Za-z0-9]{30,}`, "hf_"),
	// SendGrid, Twilio (API key SIDs).
	secret(`SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}`, "sg."),
	secret(`\bSK[0-9a-fA-F]{32}\b`, "sk"),
	// Azure storage account keys in connection strings.
	secret(`(?i)AccountKey=[A-Za-z0-9+/=]{40,}`, "accountkey="),
	// JSON Web Tokens.
	secret(`eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`, "eyj"),
	// Credentials in URLs: scheme://user:password@host.
	secret(`(?i)\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:[^\s/@]+@`, "://"),
	// The rest of gitleaks' default rules that agents meet: HashiCorp Vault
	// service and batch tokens, Databricks, age, 1Password (service
	// account tokens and secret keys), Alibaba, Artifactory (API keys and
	// reference tokens), Doppler, Postman, Pulumi, GitLab's other tokens
	// (runner, trigger, deploy, feed, agent…), Telegram bots; and a PEM key
	// wrapped in base64 ("-----BEGIN" encoded).
	secret(`\bhv[sb]\.[A-Za-z0-9_\-]{24,}`, "hvs.", "hvb."),
	secret(`\bdapi[a-f0-9]{32}(?:-\d)?`, "dapi"),
	secret(`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, "age-secret-key-1"),
	secret(`\bops_eyJ[A-Za-z0-9+/]{100,}={0,3}`, "ops_eyj"),
	secret(`\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b`, "a3-"),
	secret(`\bLTAI[A-Za-z0-9]{20}\b`, "ltai"),
	secret(`\bAKCp[A-Za-z0-9]{69}\b`, "akcp"),
	secret(`\bcmVmd[A-Za-z0-9]{59}\b`, "cmvmd"),
	secret(`\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,}`, "dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."),
	secret(`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`, "pmak-"),
	secret(`\bpul-[a-f0-9]{40}\b`, "pul-"),
	secret(`\bgl(?:rt|ptt|cbt|dt|ft|imt|agent|soat|oas)-[A-Za-z0-9_\-]{20,}`, "glrt-", "glptt-", "glcbt-", "gldt-", "glft-", "glimt-", "glagent-", "glsoat-", "gloas-"),
	secret(`\b\d{5,16}:A[A-Za-z0-9_\-]{34}\b`, ":a"),
	secret(`LS0tLS1CRUdJTi[A-Za-z0-9+/=]{20,}`, "ls0tls1crudjti"),
	// Authorization headers: Bearer and Basic.
	secret(`(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{8,}=*`, "bearer"),
	secret(`(?i)\bauthorization:\s*basic\s+[A-Za-z0-9+/]{8,}=*`, "authorization"),
}

var (
	// key=value and "key": value: *_PASSWORD=, *_SECRET=, *_TOKEN=, API and
	// access keys, and camelCase keys (accessToken, clientSecret). A value
	// does not start with a bracket: "password= {" must not swallow the
	// object after it, and the keys inside it. Tried only where
	// mayNameSecret finds a word of a key.
	keyValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b((?:[a-z0-9_]*_)?(?:password|passwd|pwd|token|secret|api[_-]?key|access[_-]?key|secret[_-]?access[_-]?key|auth|` +
			`access[_-]?token|refresh[_-]?token|client[_-]?secret|private[_-]?key)["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&{\[][^\s,;&]*)`)
	})
	// The tags Claude Code wraps its own text in: restored text holding
	// one could pass for Claude Code's words, or close its wrapper. The
	// tag's start is enough: "<system-reminder" in one string and a ">"
	// in the next would read as one tag across them. A name ends where a
	// word does (as \b): "<system-reminder-x" is neutralised too, which
	// costs a false positive on names that merely start alike.
	// Any other tag-shaped word stays: "<div>" and "Vec<String>" in code
	// are the code. So does a name followed by a space and a bracket or a
	// digit, which no tag is and prose is: a request asking for "<summary
	// (e.g., three lines)>" keeps its words.
	tags = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<(/?(?:` + strings.Join(clientTags, "|") + `))([^A-Za-z0-9_\s]|\s+(?:[^\s(\[{0-9]|$)|$)`)
	})
	// Terminal control sequences (CSI, OSC and two-byte escapes), which
	// must not reach a terminal or a log viewer.
	// OSC strings (ESC ] … BEL) lose their delimiters but keep their text:
	// removing it whole would let a crafted one swallow a secret's start
	// and leave its tail.
	// CSI sequences without intermediate bytes only: "ESC [ SP g" would
	// eat the "g" of a token written after a blank; left as text, its ESC
	// goes with the other controls.
	ansi = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b(?:\[[0-9;?]*[@-~]|[@-Z\\-_])`) })
)

// clientTags are the tag names the agent clients wrap their own words in,
// which a model reads as the client speaking: Claude Code's system
// reminders, commands, tool definitions and calls, diagnostics and IDE
// context; Codex's and Gemini's context blocks; Copilot CLI's reminders,
// notifications and date. Each client's adapter lists those its recorded
// sessions hold (protocol.Agent.Tags), and the registry's tests hold this
// list to cover them. Tags that only mark data
// (<tool_use_error> inside a tool's result) and words a text about code
// uses (<thinking>, <output>) are not among them: restored error texts and
// replies keep them as written.
var clientTags = []string{"system-reminder", "system", "command-name", "command-message", "command-args",
	"local-command-stdout", "local-command-stderr", "local-command-caveat", "bash-input", "bash-stdout", "bash-stderr",
	"task-notification", "agent-notification", "user-prompt-submit-hook", "analysis", "summary",
	"functions", "function_calls", "function_results", "invoke", "new-diagnostics", "tools-used-before-summary",
	"persisted-output", "ide_opened_file", "ide_selection", "ide_diagnostics", "user-memory-input",
	"environment_context", "user_instructions", "state_snapshot", "hook_context",
	"system_reminder", "system_notification", "current_datetime"}

// Clean makes text taken from a transcript safe to write and re-inject:
// secrets redacted, terminal escapes and control characters removed,
// invalid UTF-8 replaced. Newlines and tabs are kept.
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	// The hints are looked for in the text lower-cased once; redacting
	// inserts no word of them, so it need not be lowered again but where
	// the hidden characters go (their removal can join a word).
	lower := strings.ToLower(s)
	// Redaction runs twice. First on the text as written, for the tokens
	// that stand whole in it (an escape sequence just before one could
	// eat its first letter once stripped); a match that a hidden character
	// continues is left for the second pass. Then, once escapes, controls
	// and zero-width characters are gone, on the joined text: "sk-ant-…"
	// split by a control character is whole again there.
	s = redactWhole(s, lower)
	if mayNameSecret(lower) {
		s = redactValues(s, keyValue(), true)
	}
	if strings.IndexFunc(s, func(r rune) bool { return hidden(r) }) >= 0 {
		// Only text that held hidden characters changes when they go, and
		// only there can the second pass find more.
		if strings.IndexByte(s, 0x1b) >= 0 {
			s = ansi().ReplaceAllString(s, "")
		}
		s = strings.Map(func(r rune) rune {
			if hidden(r) {
				return -1 // C0/C1 controls, bidi overrides and zero-width characters that disguise text
			}
			return r
		}, s)
		lower = strings.ToLower(s)
		for _, p := range secrets {
			if p.mayMatch(lower) {
				s = p.re().ReplaceAllString(s, Redacted)
			}
		}
	}
	if mayNameSecret(lower) {
		s = redactValues(s, keyValue(), false)
	}
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	// Last, once nothing hidden can split a tag: restored text is data,
	// and "</system-reminder>" in it must not close Claude Code's wrapper.
	// A match takes the character after the name, which may be the "<" of
	// the next tag ("<system<system-reminder"): that one is left for a
	// second pass. It cannot hide a third: what the first pass left stands
	// right after what it replaced, never after another one it left.
	for range 2 {
		s = tags().ReplaceAllString(s, "&lt;$1$2")
	}
	return s
}

// mayNameSecret is a cheap test before the key=value pattern, which is
// slow: every key it knows holds one of these words (lower is the text
// lower-cased).
func mayNameSecret(lower string) bool {
	for _, w := range []string{"pass", "pwd", "token", "secret", "key", "auth"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// redactValues redacts the value of every secret-named key. Matches are
// taken one at a time from each key on, so that a key whose "value" is the
// next key ("pwd= clientSecret: …") does not hide that key's value.
// With whole set, a value that a hidden character continues is left for
// the pass after the stripping.
func redactValues(s string, re *regexp.Regexp, whole bool) string {
	var b strings.Builder
	for {
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil {
			b.WriteString(s)
			return b.String()
		}
		key := s[loc[2]:loc[3]]
		continued := false
		if whole && loc[1] < len(s) {
			r, _ := utf8.DecodeRuneInString(s[loc[1]:])
			continued = hidden(r)
		}
		if next := re.FindStringIndex(s[loc[4]:]); continued || next != nil && next[0] == 0 {
			// The value is itself a key: keep this one, go on from there.
			b.WriteString(s[:loc[4]])
			s = s[loc[4]:]
			continue
		}
		b.WriteString(s[:loc[0]] + key + Redacted)
		s = s[loc[1]:]
	}
}

// redactWhole redacts the secrets that no hidden character continues
// (lower is s lower-cased, for the hints).
func redactWhole(s, lower string) string {
	for _, p := range secrets {
		if !p.mayMatch(lower) {
			continue
		}
		locs := p.re().FindAllStringIndex(s, -1)
		if locs == nil {
			continue
		}
		var b strings.Builder
		last := 0
		for _, loc := range locs {
			if next, _ := utf8.DecodeRuneInString(s[loc[1]:]); loc[1] < len(s) && hidden(next) {
				continue
			}
			b.WriteString(s[last:loc[0]])
			b.WriteString(Redacted)
			last = loc[1]
		}
		b.WriteString(s[last:])
		s = b.String()
	}
	return s
}

// hidden says whether r is one of the characters Clean removes. What is
// kept is an allowlist: letters, marks, digits, punctuation, symbols and
// spaces, newline and tab; everything else goes (controls, format
// characters such as bidi overrides, zero-width and tag characters, line
// and paragraph separators, private-use and unassigned code points), and
// so do the characters of those categories that show nothing (invisible).
// Each could hide or disguise text, or continue a token invisibly.
func hidden(r rune) bool {
	if r < 0x80 {
		return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs) || invisible(r)
}

// invisible are characters of the allowed categories that render as
// nothing, and so can carry text no reader sees: variation selectors
// (256 of them encode any byte), the combining grapheme joiner, Hangul
// fillers, Khmer's inherent vowels, Mongolian selectors and the blank
// Braille pattern.
func invisible(r rune) bool {
	switch {
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF, r >= 0x180B && r <= 0x180F:
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, r == 0x17B4, r == 0x17B5, r == 0x2800:
		return true
	}
	return false
}

// Excerpt is Clean with white space folded to single spaces (one line, so
// it cannot break out of the markdown around it) and cut to n runes, with
// "..." appended when cut.
func Excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(Clean(s)), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}

// Middle is s whole when it has at most n runes, else its beginning and
// its end (where a request's ask usually is, after a pasted log) around a
// line that says how much was cut: about n runes in all, lines kept.
func Middle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head, tail := n/2, n/2-100
	return strings.TrimRight(string(r[:head]), " \t") +
		fmt.Sprintf("\n\n[… %d characters cut from the middle …]\n\n", len(r)-head-tail) +
		strings.TrimLeft(string(r[len(r)-tail:]), " \t")
}

// Path is Clean for a file path, on one line and at most n runes: a longer
// one keeps its end (the file's name and nearest directories, what a
// reader needs) after "…/", so that no path can crowd the rest out of the
// budget.
func Path(p string, n int) string {
	p = Excerpt(p, utf8.RuneCountInString(p)) // one line, never cut here
	r := []rune(p)
	if len(r) <= n {
		return p
	}
	return "…" + string(r[len(r)-(n-1):])
}
