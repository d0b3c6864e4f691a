module github.com/mcp-tasks/mcp-tasks/tooling/peers/mcpkit

go 1.26.5

require (
	github.com/panyam/mcpkit v0.5.2
	github.com/panyam/mcpkit/ext/tasks v0.5.2
)
