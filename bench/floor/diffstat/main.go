// Command diffstat prints gitdiag's `git diff --stat @{upstream}...HEAD`
// and nothing else: bench/real.sh sets it beside git's own, as the part of
// init that git status does not do.
package main

import (
	"context"
	"fmt"

	"github.com/session-hooks/session-hooks/gitdiag"
)

func main() {
	res, _ := gitdiag.Run(context.Background(), ".", []gitdiag.Probe{gitdiag.DiffStatUpstream})
	if err := res[0].Err; err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range res[0].Lines {
		fmt.Println(line)
	}
}
