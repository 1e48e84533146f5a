package nested

import "testing"

// The client's own bookkeeping (Qwen Code's "$version") is no reason to keep a file install made;
// anything else is the user's, and a file that is no object is left as
// it is.
func TestOnlyTheClientsBookkeepingIsNotTheUsers(t *testing.T) {
	for js, nothing := range map[string]bool{
		`{"$version": 4}`:                       true,
		`{"$version": 4, "hooks": {}}`:          true,
		`{"hooks": {}}`:                         false, // the file as it is: backup.HoldsNothing decides
		`{"$version": 4, "model": {}}`:          false,
		`{"$version": 4, "hooks": {"Stop":[]}}`: false,
		`{"$version": 4, "hooks": []}`:          false,
		`[1]`:                                   false,
	} {
		if got := string(Client{Bookkeeping: []string{"$version"}}.withoutBookkeeping([]byte(js))) == "{}"; got != nothing {
			t.Errorf("%s: read as holding nothing: %v", js, got)
		}
	}
}
