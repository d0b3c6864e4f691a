package main

import (
	"encoding/json"
	"fmt"

	"github.com/panyam/mcpkit/core"
	"github.com/panyam/mcpkit/ext/tasks"
	"github.com/panyam/mcpkit/server"
)

const userNameParams = `{"message":"What is your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`

// registerMrtrTool adds test_tool_with_task: task support required; it asks user_name synchronously (an MRTR round,
// no task yet), then runs as a task greeting the name. Only on the SEP-2663 era (MRTR does not exist in 2025-11-25).
func registerMrtrTool(srv *server.Server) {
	srv.RegisterTool(core.ToolDef{
		Name:        "test_tool_with_task",
		Description: "Asks user_name synchronously, then runs as a task",
		InputSchema: map[string]any{"type": "object"},
		Execution:   &core.ToolExecution{TaskSupport: core.TaskSupportRequired},
	}, func(ctx core.ToolContext, _ core.ToolRequest) (core.ToolResponse, error) {
		raw := ctx.InputResponse("user_name")
		if tasks.GetTaskContext(ctx) == nil {
			if raw == nil {
				return ctx.RequestInput(core.InputRequests{
					"user_name": core.InputRequest{Method: "elicitation/create", Params: json.RawMessage(userNameParams)},
				})
			}
			return core.GoAsyncResult{}, nil
		}
		var answer struct {
			Content struct {
				Name string `json:"name"`
			} `json:"content"`
		}
		_ = json.Unmarshal(raw, &answer)
		return core.TextResult(fmt.Sprintf("Hello, %s!", answer.Content.Name)), nil
	})
}
