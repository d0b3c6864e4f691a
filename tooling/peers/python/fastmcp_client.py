"""fastmcp-tasks' client through the task lifecycle against a server, one JSON line per case, for
tooling/interop-peers.

    python fastmcp_client.py --url http://127.0.0.1:PORT/mcp
    python fastmcp_client.py --stdio "node server.js --transport stdio"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
from typing import Any

import fastmcp_tasks  # noqa: F401  (importing it gives every Client the tasks extension)
from fastmcp.client import Client
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError
from fastmcp_tasks import call_tool_task


async def accept(message: str, response_type: Any, params: Any, context: Any) -> ElicitResult:
    return ElicitResult(action="accept", content={"confirm": True})


def text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


async def immediate(client: Client) -> str:
    result = await client.call_tool("greet", {"name": "peer"})
    check("Hello" in text(result), f"greet answered {result}")
    return text(result)


async def create_poll(client: Client) -> str:
    task = await call_tool_task(client, "slow_compute", {"seconds": 0.3})
    result = await task.result()
    check("0.3" in text(result), f"result {result}")
    return text(result)


async def input_round(client: Client) -> str:
    task = await call_tool_task(client, "confirm_delete", {"filename": "a.txt"})
    result = await task.result()
    check("deleted" in text(result), f"result {result}")
    return text(result)


async def cancel(client: Client) -> str:
    task = await call_tool_task(client, "slow_compute", {"seconds": 30})
    await task.cancel()
    final = await task.wait(timeout=15)
    check(final.status == "cancelled", f"status {final.status} after tasks/cancel")
    return final.status


async def failure(client: Client) -> str:
    task = await call_tool_task(client, "protocol_error_job", {})
    final = await task.wait(timeout=15)
    check(final.status == "failed", f"status {final.status}")
    check(final.error is not None and final.result is None, "a failed task carries error and no result")
    return f"failed ({final.error.get('code')})"


async def is_error(client: Client) -> str:
    task = await call_tool_task(client, "failing_job", {}, raise_on_error=False)
    final = await task.wait(timeout=15)
    check(final.status == "completed", f"status {final.status}")
    check(bool(final.result and final.result.get("isError")), f"expected isError: {final.result}")
    return "completed, isError"


async def ttl(client: Client) -> str:
    task = await call_tool_task(client, "slow_compute", {"seconds": 0.2})
    current = await task.status()
    check(current.ttl_ms == task.create_result.ttl_ms, "ttlMs differs between creation and tasks/get")
    return f"ttlMs {current.ttl_ms}"


async def required_task_error(client: Client) -> str:
    try:
        result = await client.call_tool("failing_job", {})
    except ToolError as error:
        # the client drove the task to its end: the tool's own isError result
        return f"ran as a task ({error})"
    return f"answered {text(result)}"


CASES = {
    "immediate": immediate,
    "create-poll": create_poll,
    "input": input_round,
    "cancel": cancel,
    "failure": failure,
    "isError": is_error,
    "ttl": ttl,
}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--stdio")
    args = parser.parse_args()
    for name, run in CASES.items():
        if args.stdio:
            parts = shlex.split(args.stdio)
            target: Any = StdioTransport(command=parts[0], args=parts[1:])
        else:
            target = args.url
        try:
            async with Client(target, elicitation_handler=accept) as client:
                detail = await asyncio.wait_for(run(client), timeout=30)
            line = {"case": name, "ok": True, "detail": str(detail)}
        except Exception as error:  # noqa: BLE001  (every failure is reported, none ends the run)
            line = {"case": name, "ok": False, "detail": f"{type(error).__name__}: {error}"[:400]}
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
