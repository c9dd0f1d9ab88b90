#!/usr/bin/env python3
"""The peer of benches/mcp_http.rs: FastMCP serving `get_weather(city)` over its own
Streamable HTTP (stateless, JSON answers) at http://127.0.0.1:PORT/mcp, the tool a GET of
API_BASE/v1/weather?q=CITY through one pooled httpx client, its body returned as text.

usage: PYTHON fastmcp_http.py API_BASE PORT   (PYTHON: a venv with fastmcp, e.g. the peers'
/tmp/fastmcp-venv); runs until killed.
"""
import sys

from fastmcp import FastMCP

try:
    import httpx2 as httpx  # FastMCP 4 depends on httpx2, the renamed httpx
except ImportError:
    import httpx

api, port = sys.argv[1], int(sys.argv[2])
client = httpx.AsyncClient(base_url=api)
mcp = FastMCP("weather")


@mcp.tool
async def get_weather(city: str) -> str:
    """Current weather for a city."""
    r = await client.get("/v1/weather", params={"q": city})
    r.raise_for_status()
    return r.text


mcp.run(transport="http", host="127.0.0.1", port=port, path="/mcp", show_banner=False,
        log_level="warning", json_response=True, stateless_http=True)
