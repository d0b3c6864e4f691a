package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/panyam/mcpkit/client"
	"github.com/panyam/mcpkit/core"
)

// caseResult is one line of the client's report (read by tooling/interop-peers).
type caseResult struct {
	Case   string `json:"case"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

type clientCase struct {
	name string
	run  func(ctx context.Context) (string, error)
}

type dialer func(tasksExt bool) (*client.Client, error)

// runClient connects to a server (HTTP URL or a stdio command) and runs every lifecycle case of one era.
func runClient(args []string) error {
	fs := flag.NewFlagSet("client", flag.ExitOnError)
	url := fs.String("url", "", "Streamable HTTP URL of the server")
	stdio := fs.String("stdio", "", "command line that starts a stdio server")
	wire := fs.String("wire", "stateless", "stateless | legacy (http)")
	era := fs.String("era", "2026", "2026 | 2025")
	_ = fs.Parse(args)

	dial := func(tasksExt bool) (*client.Client, error) {
		var opts []client.ClientOption
		if tasksExt && *era == "2026" {
			opts = append(opts, client.WithTasksExtension())
		}
		opts = append(opts, client.WithElicitationHandler(acceptElicitation))
		if *stdio != "" {
			parts := strings.Fields(*stdio)
			opts = append(opts, client.WithCommandTransport(parts[0], parts[1:]))
		} else if *wire == "stateless" {
			opts = append(opts, client.WithClientMode(client.ClientModeStateless))
		} else {
			opts = append(opts, client.WithClientMode(client.ClientModeLegacyOnly))
		}
		c := client.NewClient(*url, core.ClientInfo{Name: "mcpkit-peer-client", Version: "0.5.2"}, opts...)
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if err := c.Connect(ctx); err != nil {
			return nil, err
		}
		return c, nil
	}
	cases := modernCases(dial)
	if *era == "2025" {
		cases = legacyCases(dial)
	}
	for _, cc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		detail, err := cc.run(ctx)
		cancel()
		res := caseResult{Case: cc.name, OK: err == nil, Detail: detail}
		if err != nil {
			res.Detail = err.Error()
		}
		line, _ := json.Marshal(res)
		fmt.Println(string(line))
	}
	return nil
}

func acceptElicitation(_ context.Context, _ core.ElicitationRequest) (core.ElicitationResult, error) {
	return core.ElicitationResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
}

// rpcCode returns the JSON-RPC error code carried by err, or 0.
func rpcCode(err error) int {
	var rpc *client.RPCError
	if errors.As(err, &rpc) {
		return rpc.Code
	}
	return 0
}

func resultText(r *core.ToolResult) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// withClient dials (with or without the Tasks extension), runs fn and closes the client.
func withClient(dial dialer, tasksExt bool, fn func(c *client.Client) (string, error)) (string, error) {
	c, err := dial(tasksExt)
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer c.Close()
	return fn(c)
}
