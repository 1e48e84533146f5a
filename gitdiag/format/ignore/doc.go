// Package ignore is git's exclude patterns, as dir.c parses and matches
// them: the lines of .gitignore, .git/info/exclude and core.excludesFile
// (parse_path_pattern: negation, directory-only patterns, base-name
// patterns, trailing blanks), matched with git's wildmatch
// (match_basename, match_pathname), the last match winning. The same
// patterns select the files of .gitattributes lines.
package ignore
