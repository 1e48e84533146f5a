// Command mutants runs the mutants gremlins finds in some files of a
// package against chosen tests of that package, one at a time: gremlins
// runs a package's whole suite for every mutant, which for gitdiag (a
// 25-second suite, 2,000 mutants) takes most of a day. It reads the list
// from `gremlins unleash --dry-run -o FILE`, applies each mutant to the
// source itself, runs `go test -short -run RUN PKG`, and puts the file back.
//
//	go run ./scripts/mutants -dry dry.json -pkg ./gitdiag -files status.go,diffstat.go -run 'TestStatus|TestDiffStat'
//
// With -status LIVED and -cli it takes a finished gremlins report instead
// and runs the survivors again with the CLI scripts too (the root
// package's TestCLI), which exercise the hooks as Claude Code runs them.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// swaps is what each kind of gremlins mutant turns a token into.
var swaps = map[string]map[string]string{
	"CONDITIONALS_BOUNDARY": {"<": "<=", "<=": "<", ">": ">=", ">=": ">"},
	"CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"},
	"ARITHMETIC_BASE":       {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
	"INCREMENT_DECREMENT":   {"++": "--", "--": "++"},
	"INVERT_NEGATIVES":      {"-": "+"},
}

type dryRun struct {
	Files []struct {
		Name      string `json:"file_name"`
		Mutations []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
		} `json:"mutations"`
	} `json:"files"`
}

func main() {
	dry := flag.String("dry", "", "gremlins' dry-run output (-o)")
	pkg := flag.String("pkg", "", "the package directory, e.g. ./gitdiag")
	files := flag.String("files", "", "comma-separated file names in the package")
	run := flag.String("run", ".", "the tests to run for each mutant (go test -run)")
	timeout := flag.Duration("timeout", 5*time.Minute, "a mutant whose tests run longer counts as killed (timed out)")
	status := flag.String("status", "RUNNABLE", "the mutants of the report to run: RUNNABLE (a dry run's) or LIVED (a run's survivors)")
	cli := flag.Bool("cli", false, "when the package's tests pass, run the CLI scripts too")
	module := flag.Bool("module", false, "the report is of the whole module: its file names start from the module's root")
	flag.Parse()
	opt := options{files: strings.Split(*files, ","), run: *run, status: *status, cli: *cli, module: *module, timeout: *timeout}
	if err := mutate(*dry, *pkg, opt); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

type options struct {
	files       []string // "*" for every file of the report
	run, status string
	cli, module bool
	timeout     time.Duration
}

func mutate(dryPath, pkg string, opt options) error {
	b, err := os.ReadFile(dryPath)
	if err != nil {
		return err
	}
	var d dryRun
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Errorf("%s: %v", dryPath, err)
	}
	for _, f := range d.Files {
		// A whole module's report names files from the module's root.
		if opt.module {
			if filepath.Dir(f.Name) != filepath.Clean(pkg) {
				continue
			}
			f.Name = filepath.Base(f.Name)
		}
		if !slices.Contains(opt.files, f.Name) && !slices.Contains(opt.files, "*") {
			continue
		}
		path := filepath.Join(pkg, f.Name)
		orig, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		killed, lived, notViable := 0, 0, 0
		for _, m := range f.Mutations {
			if m.Status != opt.status {
				continue
			}
			src, err := apply(orig, m.Line, m.Column, m.Type)
			if err != nil {
				// The source changed since the report: say so, go on.
				fmt.Printf("%12s %s at %s:%d:%d (%v)\n", "MOVED", m.Type, f.Name, m.Line, m.Column, err)
				continue
			}
			if err := os.WriteFile(path, src, 0o644); err != nil {
				return err
			}
			status := test(pkg, opt)
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				return err
			}
			switch status {
			case "KILLED", "TIMED OUT":
				killed++
			case "LIVED":
				lived++
			default:
				notViable++
			}
			if status != "KILLED" {
				fmt.Printf("%12s %s at %s:%d:%d\n", status, m.Type, f.Name, m.Line, m.Column)
			}
		}
		eff := 0.0
		if killed+lived > 0 {
			eff = 100 * float64(killed) / float64(killed+lived)
		}
		fmt.Printf("%s: efficacy %.1f%% (killed %d, lived %d, not viable %d)\n", f.Name, eff, killed, lived, notViable)
	}
	return nil
}

// apply swaps the operator at line:col as the mutant's type says.
func apply(src []byte, line, col int, kind string) ([]byte, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			return nil, fmt.Errorf("no operator there")
		}
		p := fset.Position(pos)
		if p.Line != line || p.Column != col {
			continue
		}
		to, ok := swaps[kind][tok.String()]
		if !ok {
			return nil, fmt.Errorf("%s is not a %s operator", tok, kind)
		}
		off := file.Offset(pos)
		var out bytes.Buffer
		out.Write(src[:off])
		out.WriteString(to)
		out.Write(src[off+len(tok.String()):])
		return out.Bytes(), nil
	}
}

// test runs the tests against the mutant: KILLED when they fail, LIVED
// when they pass, NOT VIABLE when it does not build.
func test(pkg string, opt options) string {
	ctx, cancel := context.WithTimeout(context.Background(), opt.timeout)
	defer cancel()
	// The test binary gets the timeout too: the context kills go test,
	// not the binary it started, and a mutant that loops forever (the
	// probe for the highest session number, halving no more) went on
	// taking both cores for go test's default ten minutes.
	limit := "-timeout=" + opt.timeout.String()
	out, err := exec.CommandContext(ctx, "go", "test", "-short", "-count=1", "-failfast", limit, "-run", opt.run, pkg).CombinedOutput()
	if err == nil && opt.cli {
		out, err = exec.CommandContext(ctx, "go", "test", "-short", "-count=1", "-failfast", limit, "-run", "^TestCLI$", ".").CombinedOutput()
	}
	switch {
	case ctx.Err() != nil:
		return "TIMED OUT"
	case err == nil:
		return "LIVED"
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
		return "NOT VIABLE"
	default:
		return "KILLED"
	}
}
