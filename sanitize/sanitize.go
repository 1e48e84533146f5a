package sanitize

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces each secret Clean finds.
const Redacted = "[REDACTED]"

// patterns are compiled on first use: at package initialisation they cost
// every hook run 0.2 ms, and most runs (session start and end, tool calls)
// read no transcript.
var patterns = sync.OnceValue(compilePatterns)

type redactPatterns struct {
	secrets              []*regexp.Regexp
	keyValue, ansi, tags *regexp.Regexp
}

func compilePatterns() (p redactPatterns) {
	// Credentials that agents paste, print or read into a conversation.
	// Whole-token patterns go first; key=value patterns keep the key so the
	// text stays readable.
	p.secrets = []*regexp.Regexp{
		regexp.MustCompile(`-----BEGIN[A-Z ]*PRIVATE KEY-----(?s:.*?)(-----END[A-Z ]*PRIVATE KEY-----|$)`),
		regexp.MustCompile(`sk-ant-[A-Za-z0-9_\-]{8,}`),
		regexp.MustCompile(`sk-(?:proj-|svcacct-)?[A-Za-z0-9_\-]{20,}`),
		regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`),
		regexp.MustCompile(`(?:AKIA|ASIA)[0-9A-Z]{16}`),
		regexp.MustCompile(`xox[abposr]-[A-Za-z0-9\-]{10,}`),
		regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`),
		regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{8,}=*`),
	}
	p.keyValue = regexp.MustCompile(`(?i)\b((?:[a-z0-9_]*_)?(?:password|passwd|pwd|token|secret|api[_-]?key|access[_-]?key|secret[_-]?access[_-]?key|auth)["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&]+)`)
	// The tags Claude Code wraps its own text in: restored text holding
	// one could pass for Claude Code's words, or close its wrapper.
	p.tags = regexp.MustCompile(`(?i)<(/?(?:system-reminder|system|command-name|command-message|command-args|` +
		`local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|` +
		`task-notification|user-prompt-submit-hook|analysis|summary)\b[^>]*>)`)
	// Terminal control sequences (CSI, OSC and two-byte escapes), which
	// must not reach a terminal or a log viewer.
	p.ansi = regexp.MustCompile(`\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])`)
	return p
}

// Clean makes text taken from a transcript safe to write and re-inject:
// secrets redacted, terminal escapes and control characters removed,
// invalid UTF-8 replaced. Newlines and tabs are kept.
func Clean(s string) string {
	p := patterns()
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = p.ansi.ReplaceAllString(s, "")
	for _, re := range p.secrets {
		s = re.ReplaceAllString(s, Redacted)
	}
	s = p.keyValue.ReplaceAllString(s, "${1}"+Redacted)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r), r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
			r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff:
			return -1 // C0/C1 controls, bidi overrides and zero-width characters that disguise text
		}
		return r
	}, s)
	// Last, once nothing hidden can split a tag: restored text is data,
	// and "</system-reminder>" in it must not close Claude Code's wrapper.
	return p.tags.ReplaceAllString(s, "&lt;$1")
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
