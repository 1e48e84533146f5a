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
	size := flag.String("size", "large", "large (30k files in 13k directories, ~1M objects), flat (38.5k files in 405 directories), deep (4.8k files, 82k commits) or small (100 files)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: genrepo [-size large|flat|deep|small] DIR")
	}
	spec, ok := repogen.Shapes[*size]
	if !ok {
		log.Fatalf("genrepo: no shape %q: use large, flat, deep or small", *size)
	}
	if err := repogen.Build(flag.Arg(0), spec); err != nil {
		log.Fatal(err)
	}
}
