package main

// The conformance fixture's task tools (the names and behaviour @mcp-tasks/transcripts and our tool server use),
// registered on an mcpkit server with ext/tasks (SEP-2663) or server.RegisterTasksV1 (2025-11-25).

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/panyam/mcpkit/core"
	"github.com/panyam/mcpkit/ext/tasks"
	"github.com/panyam/mcpkit/server"
)

const confirmSchema = `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`

type slowArgs struct {
	Seconds float64 `json:"seconds,omitempty"`
}

type confirmArgs struct {
	Filename string `json:"filename,omitempty"`
}

// elicitFunc asks one elicitation from inside a running task (ext/tasks or v1).
type elicitFunc func(core.ElicitationRequest) (core.ElicitationResult, error)

// taskGate decides, for one era, whether the handler runs now (a non-nil elicitFunc) or must defer to the task.
type taskGate func(ctx core.ToolContext) (elicit elicitFunc, inTask bool)

func modernGate(ctx core.ToolContext) (elicitFunc, bool) {
	tc := tasks.GetTaskContext(ctx)
	if tc == nil {
		return nil, false
	}
	return tc.TaskElicit, true
}

func legacyGate(ctx core.ToolContext) (elicitFunc, bool) {
	tc := server.GetTaskContext(ctx)
	if tc == nil {
		return nil, true // v1 runs the handler in its own goroutine; a direct call runs it inline
	}
	return tc.TaskElicit, true
}

func registerFixture(srv *server.Server, gate taskGate) {
	srv.Register(core.TypedTool[struct {
		Name string `json:"name"`
	}]("greet", "Answers at once (task support forbidden)",
		func(_ core.ToolContext, in struct {
			Name string `json:"name"`
		}) (string, error) {
			return fmt.Sprintf("Hello, %s!", in.Name), nil
		}))

	srv.Register(core.TypedTool[slowArgs, core.ToolResponse]("slow_compute", "Waits `seconds`, cancellable",
		func(ctx core.ToolContext, in slowArgs) (core.ToolResponse, error) {
			if _, ok := gate(ctx); !ok {
				return core.GoAsyncResult{}, nil
			}
			select {
			case <-ctx.Done():
				return core.ToolResult{}, ctx.Err()
			case <-time.After(time.Duration(in.Seconds * float64(time.Second))):
			}
			return core.TextResult(fmt.Sprintf("Computed result after %gs", in.Seconds)), nil
		},
		core.WithInputSchemaOverride(map[string]any{"type": "object", "properties": map[string]any{"seconds": map[string]any{"type": "number"}}}),
		core.WithToolExecution(&core.ToolExecution{TaskSupport: core.TaskSupportOptional})))

	srv.Register(core.TypedTool[struct{}, core.ToolResponse]("failing_job", "Runs only as a task; ends with isError",
		func(ctx core.ToolContext, _ struct{}) (core.ToolResponse, error) {
			if _, ok := gate(ctx); !ok {
				return core.GoAsyncResult{}, nil
			}
			return core.ErrorResult("The job failed: input data is invalid"), nil
		},
		core.WithToolExecution(&core.ToolExecution{TaskSupport: core.TaskSupportRequired})))

	srv.Register(core.TypedTool[struct{}, core.ToolResponse]("protocol_error_job", "Ends with a JSON-RPC error: the task fails",
		func(ctx core.ToolContext, _ struct{}) (core.ToolResponse, error) {
			if _, ok := gate(ctx); !ok {
				return core.GoAsyncResult{}, nil
			}
			// mcpkit turns a recovered panic into a failed task (a returned error becomes completed + isError).
			panic("internal error in protocol_error_job")
		},
		core.WithToolExecution(&core.ToolExecution{TaskSupport: core.TaskSupportOptional})))

	srv.Register(core.TypedTool[confirmArgs, core.ToolResponse]("confirm_delete", "Asks one form elicitation inside the task",
		func(ctx core.ToolContext, in confirmArgs) (core.ToolResponse, error) {
			elicit, ok := gate(ctx)
			if !ok {
				return core.GoAsyncResult{}, nil
			}
			if elicit == nil {
				return core.ToolResult{}, fmt.Errorf("confirm_delete must run as a task")
			}
			if in.Filename == "" {
				in.Filename = "important.txt"
			}
			res, err := elicit(core.ElicitationRequest{Message: "Delete " + in.Filename + "?", RequestedSchema: json.RawMessage(confirmSchema)})
			if err != nil {
				return core.ToolResult{}, err
			}
			if confirmed, _ := res.Content["confirm"].(bool); res.Action == "accept" && confirmed {
				return core.TextResult("deleted " + in.Filename), nil
			}
			return core.TextResult("kept " + in.Filename), nil
		},
		core.WithToolExecution(&core.ToolExecution{TaskSupport: core.TaskSupportOptional})))

	srv.Register(core.TypedTool[struct{}, core.ToolResponse]("multi_input", "Asks two elicitations at once",
		func(ctx core.ToolContext, _ struct{}) (core.ToolResponse, error) {
			elicit, ok := gate(ctx)
			if !ok {
				return core.GoAsyncResult{}, nil
			}
			if elicit == nil {
				return core.ToolResult{}, fmt.Errorf("multi_input must run as a task")
			}
			var wg sync.WaitGroup
			actions := make([]string, 2)
			errs := make([]error, 2)
			for i, msg := range []string{"First question?", "Second question?"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, err := elicit(core.ElicitationRequest{Message: msg, RequestedSchema: json.RawMessage(confirmSchema)})
					actions[i], errs[i] = r.Action, err
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					return core.ToolResult{}, err
				}
			}
			return core.TextResult(fmt.Sprintf("Received %s and %s", actions[0], actions[1])), nil
		},
		core.WithToolExecution(&core.ToolExecution{TaskSupport: core.TaskSupportOptional})))
}
