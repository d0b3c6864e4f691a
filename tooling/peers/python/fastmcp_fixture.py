"""The conformance fixture's task tools on fastmcp-tasks (SEP-2663), for tooling/interop-peers.

    python fastmcp_fixture.py --transport http --port PORT [--backend memory:// | redis://...]
    python fastmcp_fixture.py --transport stdio
    python -m fastmcp_tasks.worker_cli worker fastmcp_fixture.py   # a separate Docket worker (Redis)

The backend comes from FASTMCP_DOCKET_URL (memory:// by default), as fastmcp-tasks documents it.
In-task input uses fastmcp-tasks' guard pattern (the tool returns an InputRequiredResult and is re-entered
with the answers), because ctx.elicit() is not supported inside a background task.
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import timedelta

import mcp_types
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp.shared.exceptions import MCPError

CONFIRM_SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
FAST_POLL = timedelta(milliseconds=100)

mcp = FastMCP("fastmcp-tasks-peer")
mcp.add_extension(TasksExtension())


def _ask(message: str) -> mcp_types.ElicitRequest:
    return mcp_types.ElicitRequest(
        params=mcp_types.ElicitRequestFormParams(message=message, requested_schema=CONFIRM_SCHEMA)
    )


def _action(responses: mcp_types.InputResponses, key: str) -> str:
    answer = responses[key]
    return getattr(answer, "action", None) or answer.get("action", "?")  # type: ignore[union-attr]


@mcp.tool
def greet(name: str) -> str:
    """Answers at once (task support forbidden)."""
    return f"Hello, {name}!"


@mcp.tool(task=TaskConfig(mode="optional", poll_interval=FAST_POLL))
async def slow_compute(seconds: float = 1) -> str:
    """Waits `seconds` (cancellable), then completes."""
    await asyncio.sleep(seconds)
    return f"Computed result after {seconds:g}s"


@mcp.tool(task=TaskConfig(mode="required", poll_interval=FAST_POLL))
async def failing_job() -> str:
    """Runs only as a task; ends with a tool error (isError)."""
    raise ToolError("The job failed: input data is invalid")


@mcp.tool(task=TaskConfig(mode="optional", poll_interval=FAST_POLL))
async def protocol_error_job() -> str:
    """Ends with JSON-RPC error -32603, so its task is failed."""
    raise MCPError(code=mcp_types.INTERNAL_ERROR, message="Internal error in protocol_error_job")


@mcp.tool(task=TaskConfig(mode="optional", poll_interval=FAST_POLL))
async def confirm_delete(ctx: Context, filename: str = "important.txt") -> str | mcp_types.InputRequiredResult:
    """Asks one form elicitation inside the task."""
    responses = ctx.input_responses
    if not responses or "confirm" not in responses:
        return mcp_types.InputRequiredResult(result_type="input_required", input_requests={"confirm": _ask(f"Delete {filename}?")})
    return f"deleted {filename}" if _action(responses, "confirm") == "accept" else f"kept {filename}"


@mcp.tool(task=TaskConfig(mode="optional", poll_interval=FAST_POLL))
async def multi_input(ctx: Context) -> str | mcp_types.InputRequiredResult:
    """Asks two elicitations at once; completes when both are answered."""
    responses = ctx.input_responses or {}
    missing = {key: _ask(f"Question {key}?") for key in ("first", "second") if key not in responses}
    if missing:
        return mcp_types.InputRequiredResult(result_type="input_required", input_requests=missing)
    return f"Received {_action(responses, 'first')} and {_action(responses, 'second')}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--transport", choices=["http", "stdio"], default="http")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--stateless", action="store_true", help="stateless Streamable HTTP (the 2026-07-28 wire)")
    args = parser.parse_args()
    if args.transport == "stdio":
        mcp.run(transport="stdio", show_banner=False)
    else:
        mcp.run(transport="http", host="127.0.0.1", port=args.port, show_banner=False, log_level="warning",
                stateless_http=args.stateless)
