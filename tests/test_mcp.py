"""``graphmem mcp``: the memory tools over MCP, called by a real MCP client over stdio."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest

from graphmem import Memory
from graphmem.tools import call_tool, openai_tools, tool_specs

mcp = pytest.importorskip("mcp")


def _server_command() -> tuple[str, list[str]]:
    script = Path(sys.executable).parent / "graphmem"
    if script.exists():
        return str(script), []
    return sys.executable, ["-m", "graphmem.cli"]


async def _session_calls(store: Path) -> dict:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    command, prefix = _server_command()
    params = StdioServerParameters(
        command=command,
        args=[
            *prefix,
            "--store",
            str(store),
            "--scope",
            "sam",
            "--no-embed",
            "mcp",
            "--speaker",
            "Sam",
        ],
        env={"HF_HUB_OFFLINE": "1", "PATH": os.environ.get("PATH", "")},
    )
    out: dict = {}
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.list_tools()
            out["tools"] = {t.name: t for t in listed.tools}

            async def call(name: str, arguments: dict):
                result = await session.call_tool(name, arguments)
                data = json.loads(result.content[0].text)
                assert data == result.structured_content
                return result.is_error, data

            out["remember"] = await call(
                "remember",
                {
                    "subject": "user",
                    "predicate": "lives_in",
                    "object": "Berlin",
                    "valid_from": "2019-01-01",
                },
            )
            out["move"] = await call(
                "remember",
                {
                    "subject": "user",
                    "predicate": "lives_in",
                    "object": "Lisbon",
                    "valid_from": "2024-02-12",
                },
            )
            out["ask_now"] = await call("ask", {"question": "Where do I live now?"})
            out["ask_past"] = await call("ask", {"question": "Where did I live in 2020?"})
            out["timeline"] = await call("timeline", {"subject": "user", "predicate": "lives_in"})
            out["search"] = await call("search", {"query": "Lisbon", "k": 3})
            out["pet"] = await call(
                "remember",
                {
                    "subject": "user",
                    "predicate": "owns_pet",
                    "object": "Tom",
                    "valid_from": "2023-01-01",
                },
            )
            out["forget"] = await call(
                "forget",
                {
                    "subject": "user",
                    "predicate": "owns_pet",
                    "object": "Tom",
                    "at": "2024-04-10",
                },
            )
            out["correct"] = await call(
                "correct",
                {
                    "subject": "user",
                    "predicate": "lives_in",
                    "wrong": "Lisbon",
                    "right": "Porto",
                },
            )
            out["bad_args"] = await call("remember", {"subject": "user"})
            out["bad_predicate"] = await call(
                "remember", {"subject": "user", "predicate": "lives_on", "object": "Mars"}
            )
            out["erase"] = await call("erase", {"subject": "user"})
    return out


def test_mcp_server_tools_over_stdio(tmp_path):
    store = tmp_path / "mcp.db"
    out = anyio.run(_session_calls, store)

    assert set(out["tools"]) == {"remember", "search", "ask", "timeline", "correct", "forget"}
    schema = out["tools"]["remember"].input_schema
    assert schema["type"] == "object" and set(schema["required"]) == {
        "subject",
        "predicate",
        "object",
    }
    assert "lives_in" in schema["properties"]["predicate"]["enum"]

    assert out["remember"] == (False, out["remember"][1]) and out["remember"][1]["ok"]
    assert out["ask_now"][1]["answer"] == "Lisbon (since 2024-02-12)"
    assert out["ask_past"][1]["values"][0]["value"] == "Berlin"
    entries = out["timeline"][1]["entries"]
    assert [(e["object"], e["status"]) for e in entries] == [
        ("Berlin", "ended"),
        ("Lisbon", "current"),
    ]
    assert any("Lisbon" in h["text"] for h in out["search"][1]["hits"])
    assert out["forget"][1]["ok"] and out["forget"][1]["stored"][0]["valid_to"].startswith(
        "2024-04-10"
    )
    assert out["correct"][1]["ok"]

    is_error, data = out["bad_args"]
    assert is_error and not data["ok"] and "predicate" in data["error"]
    is_error, data = out["bad_predicate"]
    assert is_error and "unknown predicate" in data["error"]
    is_error, data = out["erase"]  # not exposed without --allow-erase
    assert is_error and "unknown tool" in data["error"]

    # everything the tools wrote is in the store, in the server's scope, about the speaker
    with Memory.open(store, embedder=None) as mem:
        assert [f.object for f in mem.facts("Sam", "lives_in", scope="sam")] == ["Porto"]
        assert mem.facts("Sam", "owns_pet", scope="sam") == []
        assert mem.facts("Sam", "owns_pet", scope="sam", as_of="2023-06-01")[0].object == "Tom"


def test_openai_schemas_and_dispatcher(tmp_path):
    tools = openai_tools(allow_erase=True)
    assert [t["function"]["name"] for t in tools] == [
        "remember",
        "search",
        "ask",
        "timeline",
        "correct",
        "forget",
        "erase",
    ]
    for tool in tools:
        params = tool["function"]["parameters"]
        assert tool["type"] == "function" and tool["function"]["description"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert '"title":' not in json.dumps(params)
        for prop in params["properties"].values():
            assert "type" in prop and "anyOf" not in prop
    assert {s["name"] for s in tool_specs()} == {t["function"]["name"] for t in tools} - {"erase"}

    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        # arguments may come as the JSON string an OpenAI response carries
        args = json.dumps({"subject": "me", "predicate": "works_at", "object": "Acme"})
        assert call_tool(mem, "remember", args, speaker="Ana", scope="ana")["ok"]
        answer = call_tool(mem, "ask", {"question": "Where do I work?"}, speaker="Ana", scope="ana")
        assert answer["answer"].startswith("Acme") and answer["known"]
        other = call_tool(mem, "ask", {"question": "Where do I work?"}, speaker="Ana")
        assert other["known"] is False  # another scope knows nothing
        assert call_tool(mem, "nope", {})["error"] == "unknown tool 'nope'"
        assert not call_tool(mem, "search", {"query": "x", "k": 0})["ok"]
        assert not call_tool(mem, "ask", {"question": "q", "as_of": "the 12th of never"})["ok"]
        assert not call_tool(mem, "remember", "{not json")["ok"]
        erased = call_tool(
            mem, "erase", {"subject": "me"}, speaker="Ana", scope="ana", allow_erase=True
        )
        assert erased["ok"] and erased["rows_deleted"] == 1
