package copilot

import (
	"strings"

	"github.com/session-hooks/session-hooks/internal/sanitize"
	"github.com/session-hooks/session-hooks/transcript"
)

// todoTable is the task list Copilot CLI keeps as a SQL table its sql
// tool builds ("todos": id, title, description, status): the statements
// of the session's successful calls, replayed in order. Only the shapes
// the agent writes are read (INSERT, INSERT OR REPLACE/IGNORE, UPDATE …
// SET … WHERE id = / IN, DELETE); anything else leaves the table as it
// was, as a statement SQLite refuses does.
type todoTable struct {
	rows []todoRow // in the order of their insertion (SQLite's rowid)
	used bool      // a statement touched the table
}

type todoRow struct{ id, title, status string }

// maxTodos bounds the rows kept.
const maxTodos = 500

// exec replays the statements of one sql call.
func (t *todoTable) exec(query string) {
	for _, stmt := range splitStatements(query) {
		toks := tokenize(stmt)
		switch {
		case len(toks) > 2 && kw(toks[0], "insert"):
			t.insert(toks)
		case len(toks) > 2 && kw(toks[0], "update") && isTodos(toks[1]):
			t.update(toks[2:])
		case len(toks) > 2 && kw(toks[0], "delete") && kw(toks[1], "from") && isTodos(toks[2]):
			t.delete(toks[3:])
		}
	}
}

func isTodos(tok string) bool { return strings.EqualFold(strings.Trim(tok, `"`+"`"), "todos") }

func kw(tok, word string) bool { return strings.EqualFold(tok, word) }

// insert reads INSERT [OR REPLACE|OR IGNORE] INTO todos (cols) VALUES (…), (…).
func (t *todoTable) insert(toks []string) {
	i, mode := 1, ""
	if len(toks) > 3 && kw(toks[1], "or") {
		mode, i = strings.ToLower(toks[2]), 3
	}
	if i+1 >= len(toks) || !kw(toks[i], "into") || !isTodos(toks[i+1]) {
		return
	}
	i += 2
	cols, i := group(toks, i)
	if cols == nil || i >= len(toks) || !kw(toks[i], "values") {
		return
	}
	i++
	for i < len(toks) {
		vals, next := group(toks, i)
		if vals == nil {
			return
		}
		t.put(cols, vals, mode)
		i = next
		if i < len(toks) && toks[i] == "," {
			i++
		} else {
			break
		}
	}
}

// put adds a row of the columns' values; an id already there is refused,
// replaced at the end (OR REPLACE) or left (OR IGNORE).
func (t *todoTable) put(cols, vals []string, mode string) {
	if len(cols) != len(vals) {
		return
	}
	row := todoRow{status: "pending"}
	for k, c := range cols {
		switch strings.ToLower(strings.Trim(c, `"`+"`")) {
		case "id":
			row.id = value(vals[k])
		case "title":
			row.title = value(vals[k])
		case "status":
			row.status = value(vals[k])
		}
	}
	for n, r := range t.rows {
		if r.id == row.id {
			if mode != "replace" {
				return
			}
			t.rows = append(t.rows[:n], t.rows[n+1:]...)
			break
		}
	}
	if len(t.rows) < maxTodos {
		t.rows, t.used = append(t.rows, row), true
	}
}

// update reads SET col = v[, col = v] [WHERE …].
func (t *todoTable) update(toks []string) {
	if len(toks) == 0 || !kw(toks[0], "set") {
		return
	}
	set := map[string]string{}
	i := 1
	for i+2 < len(toks) && toks[i+1] == "=" {
		set[strings.ToLower(toks[i])] = value(toks[i+2])
		i += 3
		if i < len(toks) && toks[i] == "," {
			i++
			continue
		}
		break
	}
	match, ok := where(toks[i:])
	if !ok {
		return
	}
	for n, r := range t.rows {
		if match(r.id) {
			if v, ok := set["status"]; ok {
				t.rows[n].status = v
			}
			if v, ok := set["title"]; ok {
				t.rows[n].title = v
			}
			t.used = true
		}
	}
}

// delete reads [WHERE …].
func (t *todoTable) delete(toks []string) {
	match, ok := where(toks)
	if !ok {
		return
	}
	kept := t.rows[:0]
	for _, r := range t.rows {
		if !match(r.id) {
			kept = append(kept, r)
		}
	}
	t.rows, t.used = kept, true
}

// where reads "" (every row), WHERE id = v, or WHERE id IN (v, …).
func where(toks []string) (func(id string) bool, bool) {
	switch {
	case len(toks) == 0:
		return func(string) bool { return true }, true
	case len(toks) >= 4 && kw(toks[0], "where") && kw(toks[1], "id") && toks[2] == "=":
		v := value(toks[3])
		return func(id string) bool { return id == v }, true
	case len(toks) >= 4 && kw(toks[0], "where") && kw(toks[1], "id") && kw(toks[2], "in"):
		vals, _ := group(toks, 3)
		set := map[string]bool{}
		for _, v := range vals {
			set[value(v)] = true
		}
		return func(id string) bool { return set[id] }, vals != nil
	}
	return nil, false
}

// group reads "(a, b, …)" at toks[i]: its items, and the index after it.
func group(toks []string, i int) ([]string, int) {
	if i >= len(toks) || toks[i] != "(" {
		return nil, i
	}
	var items []string
	for i++; i < len(toks); i++ {
		switch toks[i] {
		case ")":
			return items, i + 1
		case ",":
		default:
			items = append(items, toks[i])
		}
	}
	return nil, i
}

// value is a literal's value: a quoted string unquoted, else as written.
func value(tok string) string {
	if len(tok) >= 2 && tok[0] == '\'' && tok[len(tok)-1] == '\'' {
		return strings.ReplaceAll(tok[1:len(tok)-1], "''", "'")
	}
	if strings.EqualFold(tok, "null") {
		return ""
	}
	return tok
}

// splitStatements cuts a script at the semicolons outside quotes.
func splitStatements(q string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(q); i++ {
		switch {
		case q[i] == '\'':
			quoted = !quoted
		case q[i] == ';' && !quoted:
			out = append(out, q[start:i])
			start = i + 1
		}
	}
	return append(out, q[start:])
}

// tokenize cuts a statement into words, quoted strings (whole, quotes
// kept), and the punctuation ( ) , =.
func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '(' || c == ')' || c == ',' || c == '=':
			toks = append(toks, string(c))
			i++
		case c == '\'':
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			toks = append(toks, s[i:min(j+1, len(s))])
			i = j + 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \n\t\r(),='", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

// todos is the table as the transcript's task list.
func (t *todoTable) todos() []transcript.Todo {
	if !t.used {
		return nil
	}
	out := []transcript.Todo{}
	for _, r := range t.rows {
		out = append(out, transcript.Todo{Content: sanitize.Excerpt(r.title, transcript.TaskRunes), Status: sanitize.Excerpt(r.status, 20)})
	}
	return out
}
