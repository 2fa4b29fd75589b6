"""The tools of a running MCP server, listed over stdio with the standard library only.

``list_tools(command)`` starts ``command`` as a child process and speaks the MCP stdio
transport to it: JSON-RPC 2.0 messages, one per line, on the child's stdin and stdout (its
stderr is its log). It sends ``initialize``, then the ``notifications/initialized``
notification, then ``tools/list`` until no ``nextCursor`` is left, and returns what the
importer reads as a ``tools/list`` result: ``{"tools": [...every page's tools...]}``.

Whatever happens, the child is stopped before ``list_tools`` returns or raises: its stdin is
closed (the transport's way to say goodbye), and a child still running after a grace period
is sent SIGTERM, then SIGKILL (its whole process group on POSIX: ``npx`` and ``uvx`` start the
server as a grandchild). Every way the exchange can fail is a :class:`ServerError` whose
message says what happened, to which request, and how the server's stderr ended: the command
cannot start, the server exits or closes its stdout, answers with a JSON-RPC error, sends a
line or an output longer than it takes (``MAX_LINE_BYTES``, ``MAX_OUTPUT_BYTES``), or does not
finish within ``timeout`` seconds in all.

A line on stdout that is not JSON-RPC (a banner such as "Starting MCP server...", which some
servers print although stdout is the transport's) is skipped, as the official SDKs' clients
skip it, and named in the error if the exchange fails after all. A ``nextCursor`` of ``""``
ends the list, as the SDKs' loops read it.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import IO, Any

from .. import __version__

#: Seconds the whole exchange (start, initialize, every page of tools/list) may take.
DEFAULT_TIMEOUT = 30.0
#: The longest ``timeout`` taken, in seconds (a day).
MAX_TIMEOUT = 86_400.0
#: The MCP revision the client asks for; the server answers with the one it speaks, and
#: ``initialize`` and ``tools/list`` are the same in every revision.
PROTOCOL_VERSION = "2025-06-18"
#: The longest message line read, in bytes (the importer's limit for a file).
MAX_LINE_BYTES = 16 * 1_048_576
#: The most the server may write on stdout in all, in bytes (notifications included): what is
#: read waits in memory until it is wanted.
MAX_OUTPUT_BYTES = 4 * MAX_LINE_BYTES
#: At most this many pages of tools/list: a server handing out cursors forever is refused.
MAX_PAGES = 1000
#: Seconds a child gets to exit after its stdin is closed, and again after SIGTERM.
GRACE_SECONDS = 2.0
#: How much of the end of the server's stderr an error message quotes.
STDERR_TAIL_BYTES = 600


class ServerError(Exception):
    """The server's tools could not be listed; the message says why."""


def list_tools(command: list[str], timeout: float = DEFAULT_TIMEOUT) -> tuple[str, dict[str, Any]]:
    """The server's name (its ``serverInfo.name``) and every tool it lists, as
    ``{"tools": [...]}``; raise :class:`ServerError` when the server fails (see the module)."""
    if not command:
        raise ServerError("no server command given")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise ValueError(f"timeout must be above 0 and at most {MAX_TIMEOUT:g} seconds")
    session = _Session.start(command, time.monotonic() + timeout, timeout)
    try:
        answer = session.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "toolshape", "version": __version__},
            },
        )
        session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return _server_name(answer), {"tools": _every_page(session)}
    finally:
        session.stop()


def _every_page(session: _Session) -> list[Any]:
    """The tools of every page of ``tools/list``, following ``nextCursor``."""
    tools: list[Any] = []
    cursors: set[str] = set()
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = session.request("tools/list", {} if cursor is None else {"cursor": cursor})
        listed = page.get("tools")
        if not isinstance(listed, list):
            raise session.failure("answered tools/list without a 'tools' list")
        tools.extend(listed)
        cursor = page.get("nextCursor")
        if cursor is None or cursor == "":
            return tools
        if not isinstance(cursor, str) or cursor in cursors:
            raise session.failure(
                f"answered tools/list with the nextCursor {_shown(cursor)}, "
                "which is no new string: the list would never end"
            )
        cursors.add(cursor)
    raise session.failure(f"listed more than {MAX_PAGES} pages of tools")


def _decoded(line: bytes) -> dict[str, Any] | None:
    """The JSON-RPC 2.0 message ``line`` holds (None: it holds none)."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    return message


def _server_name(answer: dict[str, Any]) -> str:
    """The server's own name from its ``initialize`` answer, printable and short ("" if none)."""
    info = answer.get("serverInfo")
    name = info.get("name") if isinstance(info, dict) else None
    if not isinstance(name, str):
        return ""
    return "".join(c if c.isprintable() else "?" for c in name)[:64]


def _shown(value: Any) -> str:
    """A value from the server, as JSON, cut short for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:200] + "..."


@dataclass
class _Session:
    """One running server: its process, the lines read from its stdout, the deadline."""

    command: list[str]
    process: subprocess.Popen[bytes]
    #: Each line read; at the end None, or the reason reading stopped early (too much output).
    lines: queue.Queue[bytes | str | None]
    stderr: IO[bytes]
    deadline: float
    timeout: float
    next_id: int = 1
    #: The lines on stdout that were not JSON-RPC, skipped: how many, and the first.
    skipped: int = 0
    first_skipped: str = ""

    @classmethod
    def start(cls, command: list[str], deadline: float, timeout: float) -> _Session:
        """Start ``command`` in a process group of its own, its stdout read by a thread."""
        stderr = tempfile.TemporaryFile()  # noqa: SIM115  closed by stop()
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=os.name == "posix",
            )
        except OSError as error:
            stderr.close()
            reason = error.strerror or str(error)
            raise ServerError(f"cannot start the MCP server {command[0]!r}: {reason}") from None
        lines: queue.Queue[bytes | str | None] = queue.Queue()
        assert process.stdout is not None  # stdout=PIPE
        threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
        return cls(command, process, lines, stderr, deadline, timeout)

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its result (answering the server's own requests meanwhile)."""
        number = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        while True:
            message = self.receive(method)
            if "method" in message:
                self.answer_server(message)
                continue
            answered = message.get("id")
            if answered != number or isinstance(answered, bool):  # JSON's true is no id 1
                raise self.failure(f"answered request {_shown(answered)} while {method} was asked")
            if "error" in message:
                raise self.failure(
                    f"answered {method} with an error: {_error_text(message['error'])}"
                )
            result = message.get("result")
            if not isinstance(result, dict):
                raise self.failure(f"answered {method} without a result object")
            return result

    def answer_server(self, message: dict[str, Any]) -> None:
        """A request from the server gets an answer (``ping`` an empty result, anything else
        "method not found": a lister offers nothing); a notification needs none."""
        if "id" not in message:
            return
        if message["method"] == "ping":
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
        else:
            error = {"code": -32601, "message": "toolshape only lists tools"}
            self.send({"jsonrpc": "2.0", "id": message["id"], "error": error})

    def send(self, message: dict[str, Any]) -> None:
        stdin = self.process.stdin
        assert stdin is not None  # stdin=PIPE
        try:
            stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
            stdin.flush()
        except OSError:  # a closed pipe: the server is gone
            raise self.exited(str(message.get("method", "an answer"))) from None

    def receive(self, method: str) -> dict[str, Any]:
        """The next JSON-RPC message from the server (blank lines skipped)."""
        while True:
            remaining = self.deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(remaining, 0.0))
            except queue.Empty:
                raise self.failure(
                    f"did not answer {method} within {self.timeout:g} s (--timeout sets the limit)"
                ) from None
            if line is None:
                raise self.exited(method)
            if isinstance(line, str):
                raise self.failure(f"{line} while {method} was asked")
            if not line.strip():
                continue
            message = _decoded(line)
            if message is not None:
                return message
            self.skipped += 1
            if self.skipped == 1:
                self.first_skipped = line[:200].decode("utf-8", errors="replace").rstrip()

    def exited(self, method: str) -> ServerError:
        """The server closed its stdout (or stdin): say how it exited, if it has."""
        try:
            status = self.process.wait(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            return self.failure(f"closed its output before answering {method}")
        return self.failure(f"exited (status {status}) before answering {method}")

    def failure(self, what: str) -> ServerError:
        """A ServerError: the server (by its command) did ``what``, and its stderr ended so
        (and the lines on its stdout that were not JSON-RPC, if it wrote any)."""
        if self.skipped:
            lines = "a line" if self.skipped == 1 else f"{self.skipped} lines"
            what += (
                f"; it wrote {lines} on stdout that is not JSON-RPC 2.0, the first "
                f"{self.first_skipped!r} (an MCP server over stdio writes only JSON-RPC "
                "messages on stdout, its log on stderr)"
            )
        tail = self.stderr_tail()
        said = f"; its stderr ends: {tail}" if tail else ""
        return ServerError(f"the MCP server {self.command[0]!r} {what}{said}")

    def stderr_tail(self) -> str:
        try:
            self.stderr.flush()
            size = self.stderr.seek(0, os.SEEK_END)
            self.stderr.seek(max(size - STDERR_TAIL_BYTES, 0))
            tail = self.stderr.read().decode("utf-8", errors="replace")
        except (OSError, ValueError):
            return ""
        return " | ".join(line.strip() for line in tail.strip().splitlines()[-5:])

    def stop(self) -> None:
        """End the child: close its stdin, then SIGTERM, then SIGKILL, each after a grace period."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass  # already broken: the child is going anyway
        for ending in (None, signal.SIGTERM, _KILL):
            if ending is not None:
                self.signal(ending)
            try:
                self.process.wait(timeout=GRACE_SECONDS)
                break
            except subprocess.TimeoutExpired:
                continue
        self.stderr.close()

    def signal(self, number: int) -> None:
        """Send ``number`` to the child and, on POSIX, to the process group it leads."""
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, number)
            elif number == _KILL:
                self.process.kill()
            else:
                self.process.terminate()
        except OSError:
            pass  # gone already


#: SIGKILL where there is one (Windows ends a process with TerminateProcess either way).
_KILL = getattr(signal, "SIGKILL", signal.SIGTERM)


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | str | None]) -> None:
    """Hand every line of ``stream`` to ``lines``, then None at its end; a line longer than
    MAX_LINE_BYTES, or more than MAX_OUTPUT_BYTES in all, ends the reading with its reason."""
    total = 0
    try:
        while True:
            line = stream.readline(MAX_LINE_BYTES + 1)
            if not line:
                break
            total += len(line)
            if len(line) > MAX_LINE_BYTES:
                lines.put(f"sent a line of more than {MAX_LINE_BYTES} bytes")
                return
            if total > MAX_OUTPUT_BYTES:
                lines.put(f"sent more than {MAX_OUTPUT_BYTES} bytes")
                return
            lines.put(line)
    except (OSError, ValueError):
        pass  # the pipe closed under us: the end of the stream
    lines.put(None)


def _error_text(error: Any) -> str:
    """A JSON-RPC error object as ``CODE MESSAGE`` (any other value as JSON)."""
    if isinstance(error, dict) and "message" in error:
        code = error.get("code")
        return (
            f"{_shown(code)} {_shown(error['message'])}"
            if code is not None
            else _shown(error["message"])
        )
    return _shown(error)
