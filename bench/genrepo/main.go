// Command genrepo builds a synthetic repository for benchmarks.
//
//	genrepo -size large DIR
package main

import (
	"flag"
	"log"

	"github.com/session-hooks/session-hooks/bench/repogen"
)

func main() {
	size := flag.String("size", "large", "large (30k files, ~1M objects) or small (100 files)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: genrepo [-size large|small] DIR")
	}
	spec := repogen.Large
	if *size == "small" {
		spec = repogen.Small
	}
	if err := repogen.Build(flag.Arg(0), spec); err != nil {
		log.Fatal(err)
	}
}
