"""The fixture's task tools on the Python SDK `mcp` 1.x with its 2025-11-25 experimental tasks, for
tooling/interop-peers.

    python mcp1_fixture.py --transport http --port PORT     # Streamable HTTP with sessions
    python mcp1_fixture.py --transport stdio
"""

from __future__ import annotations

import argparse
import contextlib

import anyio
import mcp.types as types
from mcp.server.experimental.task_context import ServerTaskContext
from mcp.server.lowlevel import Server

CONFIRM_SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
SLOW_SCHEMA = {"type": "object", "properties": {"seconds": {"type": "number"}}}
EMPTY = {"type": "object", "properties": {}}
CONFIRM_ARGS = {"type": "object", "properties": {"filename": {"type": "string"}}}

server: Server = Server("mcp1-peer")
server.experimental.enable_tasks()

TOOLS = {
    "greet": types.Tool(name="greet", inputSchema={"type": "object", "properties": {"name": {"type": "string"}}}),
    "slow_compute": types.Tool(name="slow_compute", inputSchema=SLOW_SCHEMA, execution=types.ToolExecution(taskSupport="optional")),
    "failing_job": types.Tool(name="failing_job", inputSchema=EMPTY, execution=types.ToolExecution(taskSupport="required")),
    "protocol_error_job": types.Tool(name="protocol_error_job", inputSchema=EMPTY, execution=types.ToolExecution(taskSupport="optional")),
    "confirm_delete": types.Tool(name="confirm_delete", inputSchema=CONFIRM_ARGS, execution=types.ToolExecution(taskSupport="optional")),
}


def _text(text: str, *, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=is_error)


async def _work(name: str, args: dict, task: ServerTaskContext | None) -> types.CallToolResult:
    if name == "slow_compute":
        seconds = float(args.get("seconds", 1))
        await anyio.sleep(seconds)
        return _text(f"Computed result after {seconds:g}s")
    if name == "failing_job":
        return _text("The job failed: input data is invalid", is_error=True)
    if name == "protocol_error_job":
        raise RuntimeError("Internal error in protocol_error_job")
    if name == "confirm_delete":
        filename = args.get("filename", "important.txt")
        if task is None:
            raise RuntimeError("confirm_delete asks its question from inside a task")
        answer = await task.elicit(message=f"Delete {filename}?", requestedSchema=CONFIRM_SCHEMA)
        ok = answer.action == "accept" and bool((answer.content or {}).get("confirm"))
        return _text(f"deleted {filename}" if ok else f"kept {filename}")
    return _text(f"Hello, {args.get('name', '')}!")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return list(TOOLS.values())


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> types.CallToolResult | types.CreateTaskResult:
    ctx = server.request_context
    tool = TOOLS.get(name)
    if tool is None:
        raise ValueError(f"unknown tool {name}")
    ctx.experimental.validate_for_tool(tool)
    if ctx.experimental.is_task:
        return await ctx.experimental.run_task(lambda task: _work(name, arguments, task))
    return await _work(name, arguments, None)


async def _serve_http(port: int) -> None:
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Mount

    manager = StreamableHTTPSessionManager(app=server)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with manager.run():
            yield

    app = Starlette(routes=[Mount("/mcp", app=manager.handle_request)], lifespan=lifespan)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    await uvicorn.Server(config).serve()


async def _serve_stdio() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--transport", choices=["http", "stdio"], default="http")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    anyio.run(_serve_stdio if args.transport == "stdio" else (lambda: _serve_http(args.port)))
