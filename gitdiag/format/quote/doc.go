// Package quote is git's C-style quoting of path names (quote.c):
// quote_c_style, which git status and git diff use for names with control
// characters, quotes, backslashes or non-ASCII bytes (core.quotePath), and
// unquote_c_style, which reads such names back (in .gitattributes).
package quote
