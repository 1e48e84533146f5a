// Command aheadbehind prints gitdiag's count of A...B as `git rev-list
// --left-right --count A...B` prints it (left, a tab, right), and nothing
// else: bench/aheadbehind.sh times it beside git's own. A and B are
// commit ids. It collects garbage as a hook does (internal/gcpace).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/session-hooks/session-hooks/gitdiag"
	"github.com/session-hooks/session-hooks/internal/gcpace"
)

func main() {
	if len(os.Args) != 3 || !plumbing.IsHash(os.Args[1]) || !plumbing.IsHash(os.Args[2]) {
		fmt.Fprintln(os.Stderr, "usage: aheadbehind A B (two commit ids)")
		os.Exit(2)
	}
	gcpace.Hook()
	r, err := gitdiag.Open(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer r.Close()
	left, right, err := r.AheadBehind(context.Background(), plumbing.NewHash(os.Args[1]), plumbing.NewHash(os.Args[2]))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d\t%d\n", left, right)
}
