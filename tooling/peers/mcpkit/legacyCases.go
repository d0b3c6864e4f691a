package main

import (
	"context"
	"fmt"
	"time"

	"github.com/panyam/mcpkit/client"
	"github.com/panyam/mcpkit/core"
)

// legacyCases drives the 2025-11-25 experimental tasks (params.task, tasks/get, tasks/result, tasks/cancel).
func legacyCases(dial dialer) []clientCase {
	run := func(fn func(ctx context.Context, c *client.Client) (string, error)) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			return withClient(dial, true, func(c *client.Client) (string, error) { return fn(ctx, c) })
		}
	}
	finish := func(ctx context.Context, c *client.Client, name string, args any) (*core.ToolResult, string, error) {
		created, err := client.ToolCallAsTaskV1(ctx, c, name, args)
		if err != nil {
			return nil, "", err
		}
		if _, err := client.WaitForTaskV1(ctx, c, created.Task.TaskID, 100*time.Millisecond); err != nil {
			return nil, "", err
		}
		return client.GetTaskPayloadV1(ctx, c, created.Task.TaskID)
	}
	return []clientCase{
		{"create-poll", run(func(ctx context.Context, c *client.Client) (string, error) {
			res, _, err := finish(ctx, c, "slow_compute", map[string]any{"seconds": 0.3})
			if err != nil {
				return "", err
			}
			return resultText(res), nil
		})},
		{"cancel", run(func(ctx context.Context, c *client.Client) (string, error) {
			created, err := client.ToolCallAsTaskV1(ctx, c, "slow_compute", map[string]any{"seconds": 30})
			if err != nil {
				return "", err
			}
			got, err := client.CancelTaskV1(ctx, c, created.Task.TaskID)
			if err != nil {
				return "", err
			}
			if got.Status != core.TaskCancelled {
				return "", fmt.Errorf("status %s after cancel", got.Status)
			}
			return string(got.Status), nil
		})},
		{"isError", run(func(ctx context.Context, c *client.Client) (string, error) {
			res, _, err := finish(ctx, c, "failing_job", map[string]any{})
			if err != nil {
				return "", err
			}
			if res == nil || !res.IsError {
				return "", fmt.Errorf("expected isError")
			}
			return "isError", nil
		})},
		{"required-task-error", run(func(ctx context.Context, c *client.Client) (string, error) {
			_, err := client.ToolCall(ctx, c, "failing_job", map[string]any{})
			if code := rpcCode(err); code != -32601 {
				return "", fmt.Errorf("task-required tool called without params.task: got %v (code %d), want -32601", err, code)
			}
			return "-32601", nil
		})},
	}
}
