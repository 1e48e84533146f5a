// Command diffstat prints gitdiag's `git diff --stat @{upstream}...HEAD`
// and nothing else: bench/real.sh sets it beside git's own, as the part of
// init that git status does not do. As init, it keeps its result in the
// user's cache directory and answers from it while the inputs are the same
// (gitdiag/diffstatcache.go); -nocache computes it every time.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/session-hooks/session-hooks/gitdiag"
)

func main() {
	nocache := flag.Bool("nocache", false, "compute the diff stat, never answer from the cache")
	flag.Parse()
	s := gitdiag.NewShared(".")
	defer s.Close()
	if base, err := os.UserCacheDir(); err == nil && !*nocache {
		s.CacheDir = filepath.Join(base, "session-hooks")
	}
	res, _ := s.Run(context.Background(), []gitdiag.Probe{gitdiag.DiffStatUpstream})
	if err := res[0].Err; err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range res[0].Lines {
		fmt.Println(line)
	}
}
