// Command mcpkit-peer runs github.com/panyam/mcpkit (ext/tasks) as an interop peer of mcp-tasks:
// `serve` exposes the conformance fixture's task tools, `client` drives the task lifecycle against a server
// and prints one JSON line per case. Used by tooling/interop-peers; not part of any published package.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpkit-peer serve|client [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "client":
		err = runClient(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpkit-peer:", err)
		os.Exit(1)
	}
}
