// Command status prints gitdiag's `git status --short` and nothing else:
// no command line parsing, no logs, none of the hook's other libraries.
// Its row in bench/run.sh's small table is the least a Go program that
// reads the status in-process costs, which session-hooks init and end
// (status, plus commits or logs) cannot go below.
package main

import (
	"context"
	"fmt"

	"github.com/session-hooks/session-hooks/gitdiag"
)

func main() {
	r, err := gitdiag.Open(".")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	st, err := r.Status(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range st.Short(r.Prefix) {
		fmt.Println(line)
	}
}
