package main

import "github.com/urfave/cli/v2"

// modelSwitchCommand is model-switch, PostModelSwitch's (with
// --long-running): it says the new model's window and where the context
// stands in it (hooks/modelswitch.go).
func modelSwitchCommand(h hookIO) *cli.Command { return hookCommand("model-switch", h) }
