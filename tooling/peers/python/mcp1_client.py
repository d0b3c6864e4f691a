"""The Python SDK mcp 1.x client through the 2025-11-25 experimental tasks against a server, one JSON line per
case, for tooling/interop-peers.

    python mcp1_client.py --url http://127.0.0.1:PORT/mcp
    python mcp1_client.py --stdio "node server.js --transport stdio"
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shlex
from typing import Any

import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client
from mcp.shared.exceptions import McpError

TERMINAL = {"completed", "failed", "cancelled"}


async def accept(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"confirm": True})


def check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def text(result: types.CallToolResult) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def until_terminal(session: ClientSession, task_id: str) -> types.GetTaskResult:
    for _ in range(300):
        status = await session.experimental.get_task(task_id)
        if status.status in TERMINAL or status.status == "input_required":
            return status
        await asyncio.sleep(0.05)
    raise TimeoutError(f"task {task_id} did not finish")


async def run_task(session: ClientSession, name: str, args: dict) -> tuple[types.GetTaskResult, types.CallToolResult]:
    created = await session.experimental.call_tool_as_task(name, args)
    status = await until_terminal(session, created.task.taskId)
    # tasks/result waits for the outcome (and carries the task's elicitation to our handler meanwhile)
    result = await session.experimental.get_task_result(created.task.taskId, types.CallToolResult)
    return status, result


async def create_poll(session: ClientSession) -> str:
    _, result = await run_task(session, "slow_compute", {"seconds": 0.3})
    check("0.3" in text(result), f"result {result}")
    return text(result)


async def input_round(session: ClientSession) -> str:
    _, result = await run_task(session, "confirm_delete", {"filename": "a.txt"})
    check("deleted" in text(result), f"result {result}")
    return text(result)


async def cancel(session: ClientSession) -> str:
    created = await session.experimental.call_tool_as_task("slow_compute", {"seconds": 30})
    await session.experimental.cancel_task(created.task.taskId)
    status = await until_terminal(session, created.task.taskId)
    check(status.status == "cancelled", f"status {status.status}")
    return status.status


async def failure(session: ClientSession) -> str:
    created = await session.experimental.call_tool_as_task("protocol_error_job", {})
    status = await until_terminal(session, created.task.taskId)
    check(status.status == "failed", f"status {status.status}")
    return "failed"


async def is_error(session: ClientSession) -> str:
    _, result = await run_task(session, "failing_job", {})
    check(result.isError is True, f"expected isError: {result}")
    return "isError"


async def ttl(session: ClientSession) -> str:
    created = await session.experimental.call_tool_as_task("slow_compute", {"seconds": 0.1}, ttl=5000)
    status = await session.experimental.get_task(created.task.taskId)
    check(status.ttl == created.task.ttl, f"ttl {created.task.ttl} at creation, {status.ttl} in tasks/get")
    return f"ttl {status.ttl}"


async def required_task_error(session: ClientSession) -> str:
    try:
        result = await session.call_tool("failing_job", {})
    except McpError as error:
        check(error.error.code == -32601, f"code {error.error.code}")
        return "-32601"
    raise AssertionError(f"answered without params.task: {result}")


CASES = {
    "create-poll": create_poll,
    "input": input_round,
    "cancel": cancel,
    "failure": failure,
    "isError": is_error,
    "ttl": ttl,
    "required-task-error": required_task_error,
}


@contextlib.asynccontextmanager
async def connect(args: argparse.Namespace):
    if args.stdio:
        parts = shlex.split(args.stdio)
        streams = stdio_client(StdioServerParameters(command=parts[0], args=parts[1:]))
    else:
        streams = streamablehttp_client(args.url)
    async with streams as opened:
        async with ClientSession(opened[0], opened[1], elicitation_callback=accept) as session:
            await session.initialize()
            yield session


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--stdio")
    args = parser.parse_args()
    for name, run in CASES.items():
        try:
            async with connect(args) as session:
                detail = await asyncio.wait_for(run(session), timeout=30)
            line = {"case": name, "ok": True, "detail": str(detail)}
        except BaseException as error:  # noqa: BLE001  (every failure is reported, none ends the run)
            if isinstance(error, KeyboardInterrupt):
                raise
            line = {"case": name, "ok": False, "detail": f"{type(error).__name__}: {error}"[:400]}
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
