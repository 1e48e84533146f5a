// Command empty does nothing: its row in bench/run.sh's small table is
// what starting any Go program costs on the machine, the part of
// session-hooks' time no change to its own code can remove.
package main

func main() {}
