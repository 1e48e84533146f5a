package copilot

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func rowsOf(t *todoTable) []string {
	var out []string
	for _, r := range t.rows {
		out = append(out, r.id+"|"+r.title+"|"+r.status)
	}
	return out
}

// Each shape of statement the agent writes changes the table as SQLite
// would; a statement cut short, or of another shape, changes nothing.
func TestEachStatementChangesTheTableAsSQLiteWould(t *testing.T) {
	const seed = "INSERT INTO todos (id, title, status) VALUES ('a', 'A', 'pending'), ('b', 'B', 'pending'), ('c', 'C', 'done');"
	for _, tt := range []struct {
		name, query string
		want        []string
	}{
		{"rows of one insert", "", []string{"a|A|pending", "b|B|pending", "c|C|done"}},
		{"a status by id", "UPDATE todos SET status = 'done' WHERE id = 'b'", []string{"a|A|pending", "b|B|done", "c|C|done"}},
		{"two columns by ids", "UPDATE todos SET title = 'A2', status = 'in_progress' WHERE id IN ('a', 'c')", []string{"a|A2|in_progress", "b|B|pending", "c|A2|in_progress"}},
		{"every row", "update TODOS set status='done'", []string{"a|A|done", "b|B|done", "c|C|done"}},
		{"a delete by id", "DELETE FROM todos WHERE id = 'b'", []string{"a|A|pending", "c|C|done"}},
		{"a delete of all", "DELETE FROM todos", nil},
		{"an id taken", "INSERT INTO todos (id, title) VALUES ('a', 'again')", []string{"a|A|pending", "b|B|pending", "c|C|done"}},
		{"an id taken, ignored", "INSERT OR IGNORE INTO todos (id, title) VALUES ('a', 'again')", []string{"a|A|pending", "b|B|pending", "c|C|done"}},
		{"an id taken, replaced at the end", "INSERT OR REPLACE INTO todos (id, title) VALUES ('a', 'again')", []string{"b|B|pending", "c|C|done", "a|again|pending"}},
		{"a semicolon and a quote in a string", "INSERT INTO todos (id, title) VALUES ('d', 'it''s; done')", []string{"a|A|pending", "b|B|pending", "c|C|done", "d|it's; done|pending"}},
		{"a NULL title", "INSERT INTO todos (id, title) VALUES ('d', NULL)", []string{"a|A|pending", "b|B|pending", "c|C|done", "d||pending"}},
		{"an empty title", "INSERT INTO todos (id, title) VALUES ('d', '')", []string{"a|A|pending", "b|B|pending", "c|C|done", "d||pending"}},
		{"two statements, both counted", "INSERT INTO todos (id, title) VALUES ('d', 'D');UPDATE todos SET status = 'done' WHERE id = 'd'", []string{"a|A|pending", "b|B|pending", "c|C|done", "d|D|done"}},
		{"another table", "INSERT INTO notes (id, title) VALUES ('x', 'y'); UPDATE notes SET status = 'x'; DELETE FROM notes", []string{"a|A|pending", "b|B|pending", "c|C|done"}},
		{"columns and values of other counts", "INSERT INTO todos (id, title) VALUES ('d')", []string{"a|A|pending", "b|B|pending", "c|C|done"}},
	} {
		var tbl todoTable
		tbl.exec(seed)
		tbl.exec(tt.query)
		if got := rowsOf(&tbl); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, cut := range []string{"INSERT", "INSERT OR", "INSERT OR REPLACE", "INSERT OR REPLACE INTO", "INSERT INTO", "INSERT INTO todos", "INSERT INTO todos (id", "INSERT INTO todos (id)",
		"INSERT INTO todos (id) VALUES", "INSERT INTO todos (id) VALUES ('x'", "INSERT INTO todos (id) VALUES ('x'),", "UPDATE todos", "UPDATE todos SET",
		"UPDATE todos SET status", "UPDATE todos SET status =", "UPDATE todos SET status = 'x',", "UPDATE todos SET status = 'x' WHERE",
		"UPDATE todos SET status = 'x' WHERE id =", "UPDATE todos SET status = 'x' WHERE id IN", "UPDATE todos SET status = 'x' WHERE id IN ('a'",
		"DELETE FROM todos WHERE", "DELETE FROM todos WHERE id", "DELETE FROM todos WHERE id IN (", "'", "'a''", "INSERT INTO todos (id) VALUES ('"} {
		var tbl todoTable
		tbl.exec(seed)
		tbl.exec(cut) // must not panic
		if got := rowsOf(&tbl); len(got) > 4 || len(got) == 0 && !strings.HasPrefix(cut, "DELETE") {
			t.Errorf("%q changed the table to %q", cut, got)
		}
	}
}

// The table holds at most maxTodos rows: a runaway insert is bounded.
func TestTheTableIsBounded(t *testing.T) {
	var q strings.Builder
	q.WriteString("INSERT INTO todos (id, title) VALUES ")
	for i := range maxTodos + 1 {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("('" + strconv.Itoa(i) + "', 't')")
	}
	var tbl todoTable
	tbl.exec(q.String())
	if len(tbl.rows) != maxTodos || tbl.rows[maxTodos-1].id != strconv.Itoa(maxTodos-1) {
		t.Errorf("%d rows", len(tbl.rows))
	}
}

// Whatever the agent's SQL, replaying it never panics and holds at most
// maxTodos rows.
func FuzzTodoTable(f *testing.F) {
	for _, q := range []string{"INSERT INTO todos (id, title, status) VALUES ('a', 'A', 'pending'), ('b', 'B', 'x');",
		"UPDATE todos SET status = 'done' WHERE id IN ('a', 'b'); SELECT 1", "DELETE FROM todos WHERE id = 'a'", "INSERT OR REPLACE INTO todos (id) VALUES ('a')",
		"'", "((", "INSERT INTO todos (", "UPDATE todos SET = = ="} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		var tbl todoTable
		tbl.exec(q)
		tbl.exec(q)
		if len(tbl.rows) > maxTodos {
			t.Fatalf("%d rows", len(tbl.rows))
		}
	})
}
