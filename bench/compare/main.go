//go:build unix

// Command compare times commands side by side in one run: it alternates
// them, each round in a rotated order, so machine noise hits all alike,
// and prints each one's median wall time, its ratio to the first command,
// and its peak RSS. A word "<FILE"
// in a command gives it FILE on stdin (a hook's payload), with each "{run}"
// in it replaced by a number of its own to every run (a session id: each
// run is then a new session, as each SessionStart of a real one is);
// stdin is empty otherwise.
//
//	compare -dir REPO -runs 21 'git status --porcelain' 'session-hooks init <start.json' ...
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	dir := flag.String("dir", ".", "directory to run the commands in")
	runs := flag.Int("runs", 21, "timed runs of each command")
	warmup := flag.Int("warmup", 3, "untimed runs of each command first")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) < 2 {
		log.Fatal("compare: give the baseline command and at least one other")
	}
	times := make([][]time.Duration, len(cmds))
	rss := make([]int64, len(cmds))
	for r := -*warmup; r < *runs; r++ {
		// Each round starts one command further on: a command's place in
		// the round moved its median by up to 0.8 ms (an identical binary
		// run right after git status, then right after another hook).
		for k := range cmds {
			i := (k + max(r, 0)) % len(cmds)
			c := cmds[i]
			d, maxRSS, err := runOnce(*dir, c)
			if err != nil {
				log.Fatalf("compare: %s: %v", c, err)
			}
			if r >= 0 {
				times[i] = append(times[i], d)
				rss[i] = max(rss[i], maxRSS)
			}
		}
	}
	base := median(times[0])
	fmt.Printf("| command | median | ratio to `%s` | peak RSS |\n|---|---|---|---|\n", cmds[0])
	for i, c := range cmds {
		m := median(times[i])
		fmt.Printf("| `%s` | %.1f ms | %.2f× | %.1f MB |\n", label(c), float64(m.Microseconds())/1000, float64(m)/float64(base), float64(rss[i])/1024)
	}
}

func runOnce(dir, command string) (time.Duration, int64, error) {
	var args []string
	input := os.DevNull
	for _, f := range strings.Fields(command) {
		if name, ok := strings.CutPrefix(f, "<"); ok {
			input = name
			continue
		}
		args = append(args, f)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	stdin, err := openInput(input)
	if err != nil {
		return 0, 0, err
	}
	defer stdin.Close()
	cmd.Stdin = stdin
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, err
	}
	d := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return d, 0, nil
	}
	return d, ru.Maxrss, nil
}

// runs numbers the runs for "{run}": one process, so no two runs share a
// number, and the time makes them differ from a previous compare's.
var runs = time.Now().UnixNano()

// openInput opens the payload at name, with every "{run}" replaced by
// the run's own number (the replaced copy is written before the timing
// starts, and removed once it is open).
func openInput(name string) (*os.File, error) {
	b, err := os.ReadFile(name)
	if err != nil || !strings.Contains(string(b), "{run}") {
		return os.Open(name)
	}
	runs++
	f, err := os.CreateTemp("", "compare-payload-")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	if _, err := f.WriteString(strings.ReplaceAll(string(b), "{run}", fmt.Sprint(runs))); err != nil {
		f.Close()
		return nil, err
	}
	_, err = f.Seek(0, 0)
	return f, err
}

// label is a command as the table names it: without its stdin.
func label(command string) string {
	var words []string
	for _, f := range strings.Fields(command) {
		if !strings.HasPrefix(f, "<") {
			words = append(words, f)
		}
	}
	return strings.Join(words, " ")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
