package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/panyam/mcpkit/core"
	"github.com/panyam/mcpkit/ext/tasks"
	"github.com/panyam/mcpkit/server"
	"github.com/panyam/mcpkit/server/stateless"
)

// serve starts the fixture over stdio or Streamable HTTP on 127.0.0.1 (port 0) and prints "LISTENING <url>" on stdout.
func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	transport := fs.String("transport", "http", "http | stdio")
	wire := fs.String("wire", "stateless", "stateless | legacy | dual (http)")
	era := fs.String("era", "2026", "2026 (ext/tasks, SEP-2663) | 2025 (RegisterTasksV1)")
	ttlMs := fs.Int("ttl-ms", 0, "default task TTL in ms (0: mcpkit's default)")
	_ = fs.Parse(args)

	srv := server.NewServer(core.ServerInfo{Name: "mcpkit-peer", Version: "0.5.2"})
	if *era == "2025" {
		registerFixture(srv, legacyGate)
		server.RegisterTasksV1(server.TasksConfigV1{Server: srv, DefaultTTLMs: *ttlMs, DefaultPollMs: 100})
	} else {
		registerFixture(srv, modernGate)
		registerMrtrTool(srv)
		tasks.Register(tasks.Config{Server: srv, DefaultTTLMs: *ttlMs, DefaultPollMs: 100})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *transport == "stdio" {
		log.SetOutput(os.Stderr)
		return srv.RunStdio(ctx)
	}
	mode, ok := map[string]stateless.Mode{"stateless": stateless.ModeStateless, "legacy": stateless.ModeLegacyOnly, "dual": stateless.ModeDual}[*wire]
	if !ok {
		return fmt.Errorf("unknown --wire %q", *wire)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	httpSrv := &http.Server{Handler: srv.Handler(server.WithStreamableHTTP(true), server.WithStatelessMode(mode))}
	go func() { <-ctx.Done(); _ = httpSrv.Close() }()
	fmt.Printf("LISTENING http://%s/mcp\n", ln.Addr())
	if err := httpSrv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}
