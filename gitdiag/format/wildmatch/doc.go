// Package wildmatch is git's glob matcher, wildmatch.c transcribed: the
// patterns of .gitignore, .gitattributes and the includeIf conditions of
// git config. WM_PATHNAME and WM_CASEFOLD (core.ignoreCase) are the two
// flags git uses; the results, quirks included, are those of git's own
// t/t3070-wildmatch.sh cases.
package wildmatch
