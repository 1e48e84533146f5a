// Package suggest finds, for a mistyped word, the known word meant: the
// "did you mean" of error messages for commands, flags and configuration
// keys.
package suggest

import "strings"

// Closest returns the candidate nearest to word (case aside), or "" when
// none is within three edits: further than that it is a guess, not a
// typo. Ties go to the candidate first in alphabetical order.
func Closest(word string, candidates []string) string {
	best, dist := "", 4
	for _, c := range candidates {
		if d := distance(strings.ToLower(word), strings.ToLower(c)); d < dist || d == dist && c < best {
			best, dist = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between two strings, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
