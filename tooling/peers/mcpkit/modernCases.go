package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/panyam/mcpkit/client"
	"github.com/panyam/mcpkit/core"
)

// startTask calls a tool and insists on a task handle.
func startTask(ctx context.Context, c *client.Client, name string, args any) (*core.CreateTaskResult, error) {
	res, err := client.ToolCall(ctx, c, name, args)
	if err != nil {
		return nil, err
	}
	if !res.IsTask() {
		return nil, fmt.Errorf("%s: expected a task, got %+v", name, res)
	}
	return res.Task, nil
}

// finishTask starts a task and polls it (answering input) to its end.
func finishTask(ctx context.Context, c *client.Client, name string, args any) (*core.DetailedTask, error) {
	task, err := startTask(ctx, c, name, args)
	if err != nil {
		return nil, err
	}
	answer := func(_ context.Context, reqs core.InputRequests) (core.InputResponses, error) {
		out := core.InputResponses{}
		for key := range reqs {
			out[key] = json.RawMessage(`{"action":"accept","content":{"confirm":true}}`)
		}
		return out, nil
	}
	return client.WaitForTaskWithInput(ctx, c, task.TaskID, answer, client.WaitOptions{PollInterval: 100_000_000})
}

func expectStatus(dt *core.DetailedTask, want core.TaskStatus) error {
	if dt.Status != want {
		return fmt.Errorf("status %s, want %s", dt.Status, want)
	}
	return nil
}

func modernCases(dial dialer) []clientCase {
	ext := func(fn func(ctx context.Context, c *client.Client) (string, error)) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			return withClient(dial, true, func(c *client.Client) (string, error) { return fn(ctx, c) })
		}
	}
	return []clientCase{
		{"immediate", ext(func(ctx context.Context, c *client.Client) (string, error) {
			res, err := client.ToolCall(ctx, c, "greet", map[string]any{"name": "peer"})
			if err != nil {
				return "", err
			}
			if res.Sync == nil || !strings.Contains(resultText(res.Sync), "Hello") {
				return "", fmt.Errorf("expected an immediate greeting, got %+v", res)
			}
			return resultText(res.Sync), nil
		})},
		{"create-poll", ext(func(ctx context.Context, c *client.Client) (string, error) {
			dt, err := finishTask(ctx, c, "slow_compute", map[string]any{"seconds": 0.3})
			if err != nil {
				return "", err
			}
			return resultText(dt.Result), expectStatus(dt, core.TaskCompleted)
		})},
		{"input", ext(func(ctx context.Context, c *client.Client) (string, error) {
			dt, err := finishTask(ctx, c, "confirm_delete", map[string]any{"filename": "a.txt"})
			if err != nil {
				return "", err
			}
			if err := expectStatus(dt, core.TaskCompleted); err != nil {
				return "", err
			}
			if !strings.Contains(resultText(dt.Result), "deleted") {
				return "", fmt.Errorf("result %q", resultText(dt.Result))
			}
			return resultText(dt.Result), nil
		})},
		{"cancel", ext(func(ctx context.Context, c *client.Client) (string, error) {
			task, err := startTask(ctx, c, "slow_compute", map[string]any{"seconds": 30})
			if err != nil {
				return "", err
			}
			if err := client.CancelTask(ctx, c, task.TaskID); err != nil {
				return "", err
			}
			dt, err := client.WaitForTask(ctx, c, task.TaskID, client.WaitOptions{PollInterval: 100_000_000})
			if err != nil {
				return "", err
			}
			return string(dt.Status), expectStatus(dt, core.TaskCancelled)
		})},
		{"failure", ext(func(ctx context.Context, c *client.Client) (string, error) {
			dt, err := finishTask(ctx, c, "protocol_error_job", map[string]any{})
			if err != nil {
				return "", err
			}
			if err := expectStatus(dt, core.TaskFailed); err != nil {
				return "", err
			}
			if dt.Error == nil || dt.Result != nil {
				return "", fmt.Errorf("failed task must carry error and no result")
			}
			return fmt.Sprintf("error %d", dt.Error.Code), nil
		})},
		{"isError", ext(func(ctx context.Context, c *client.Client) (string, error) {
			dt, err := finishTask(ctx, c, "failing_job", map[string]any{})
			if err != nil {
				return "", err
			}
			if err := expectStatus(dt, core.TaskCompleted); err != nil {
				return "", err
			}
			if dt.Result == nil || !dt.Result.IsError {
				return "", fmt.Errorf("expected completed with isError")
			}
			return "completed, isError", nil
		})},
		{"ttl", ext(func(ctx context.Context, c *client.Client) (string, error) {
			task, err := startTask(ctx, c, "slow_compute", map[string]any{"seconds": 0.2})
			if err != nil {
				return "", err
			}
			dt, err := client.GetTask(ctx, c, task.TaskID)
			if err != nil {
				return "", err
			}
			if (task.TTLMs == nil) != (dt.TTLMs == nil) || (task.TTLMs != nil && *task.TTLMs != *dt.TTLMs) {
				return "", fmt.Errorf("ttlMs differs between the create result and tasks/get")
			}
			_, err = client.GetTask(ctx, c, "no-such-task")
			if code := rpcCode(err); code != -32602 {
				return "", fmt.Errorf("unknown task id: got %v (code %d), want -32602", err, code)
			}
			if task.TTLMs == nil {
				return "ttlMs null (unlimited)", nil
			}
			return fmt.Sprintf("ttlMs %d", *task.TTLMs), nil
		})},
		{"required-task-error", func(ctx context.Context) (string, error) {
			return withClient(dial, false, func(c *client.Client) (string, error) {
				_, err := client.ToolCall(ctx, c, "failing_job", map[string]any{})
				if code := rpcCode(err); code != -32021 {
					return "", fmt.Errorf("task-required tool without the extension: got %v (code %d), want -32021", err, code)
				}
				return "-32021", nil
			})
		}},
	}
}
