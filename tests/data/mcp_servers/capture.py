"""Capture the ``tools/list`` result of each official MCP reference server into this folder.

Not run by the tests (they read the saved files, offline): run it by hand to refresh the data,
with the servers installed as PROVENANCE.md says, then update PROVENANCE.md's versions and
date. Each server is started and listed with toolshape's own ``import --mcp`` machinery
(``toolshape.platforms.mcp_stdio``), and its listing saved as received, as
``<server>/tools_list.json``.

    python tests/data/mcp_servers/capture.py /tmp/mcpref/node_modules
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from toolshape.platforms import mcp_stdio

HERE = Path(__file__).resolve().parent


def commands(node_modules: Path, allowed: Path) -> dict[str, list[str]]:
    """Each server's folder name here, and the command that starts it over stdio."""
    scope = node_modules / "@modelcontextprotocol"
    time_server = shutil.which("mcp-server-time") or "mcp-server-time"
    return {
        # The descriptions name the local time zone: UTC, so that a refresh is reproducible.
        "time": [time_server, "--local-timezone", "UTC"],
        "filesystem": ["node", str(scope / "server-filesystem/dist/index.js"), str(allowed)],
        "memory": ["node", str(scope / "server-memory/dist/index.js")],
        "everything": ["node", str(scope / "server-everything/dist/index.js"), "stdio"],
    }


def main(node_modules: str) -> None:
    with tempfile.TemporaryDirectory() as allowed:  # the filesystem server's one allowed folder
        for folder, command in commands(Path(node_modules), Path(allowed)).items():
            name, listed = mcp_stdio.list_tools(command, timeout=60)
            target = HERE / folder / "tools_list.json"
            target.parent.mkdir(exist_ok=True)
            text = json.dumps(listed, indent=2, ensure_ascii=False) + "\n"
            target.write_text(text, encoding="utf-8")
            print(f"{folder}: {name}, {len(listed['tools'])} tools -> {target}")


if __name__ == "__main__":
    main(sys.argv[1])
