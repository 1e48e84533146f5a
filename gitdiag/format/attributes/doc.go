// Package attributes is git's .gitattributes, as attr.c reads and applies
// it: lines of a pattern (C-quoted when it starts with a double quote) and
// assignments ("name", "-name", "!name", "name=value"); [attr] macros at
// the top of the tree, the built-in binary macro; the files stacked from
// the lowest precedence up (built-ins, /etc/gitattributes,
// core.attributesFile, each directory's .gitattributes from the top down,
// .git/info/attributes) and a path's settings found from the highest
// precedence down (fill_one). Reading the files is the caller's.
package attributes
