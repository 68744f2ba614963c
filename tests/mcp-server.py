#!/usr/bin/env python3
"""An MCP server for the tests of the `mcp` tool kind (tests/all/mcp.rs),
with the Python standard library only.

    mcp-server.py stdio --log FILE
    mcp-server.py http --log FILE --port-file FILE [--cert PEM --key PEM]

`stdio` speaks newline-delimited JSON-RPC on stdin/stdout; `http` speaks
streamable HTTP (JSON answers, no SSE) on 127.0.0.1 at /mcp, on a port it
writes to --port-file once it listens; with --cert and --key, over TLS
with that certificate chain and key (https). Every `tools/call` is appended to
--log as one JSON line ({"tool", "arguments", "meta", "transport",
"headers"}) before it is answered, so a test can count what was sent.

Tools: `echo` ({message} back, as text and structured content), `env`
(the names of the server's environment variables), `fail` (a result with
isError), `big` (a text of `bytes` bytes), `hang` (never answers).
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOLS = [
    {
        "name": "echo",
        "description": "Answers with the message it was given.",
        "inputSchema": {
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"],
        },
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "env",
        "description": "Names the server's environment variables.",
        "inputSchema": {"type": "object"},
    },
    {
        "name": "fail",
        "description": "Always fails.",
        "inputSchema": {"type": "object"},
        "annotations": {"destructiveHint": True, "readOnlyHint": False},
    },
    {
        "name": "big",
        "description": "Answers a text of `bytes` bytes.",
        "inputSchema": {"type": "object", "properties": {"bytes": {"type": "integer"}}},
    },
    {
        "name": "hang",
        "description": "Never answers.",
        "inputSchema": {"type": "object"},
    },
]

LOG_LOCK = threading.Lock()


def log_call(path, entry):
    with LOG_LOCK, open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def text(value):
    return {"type": "text", "text": value}


def call_tool(params):
    """The result of a tools/call, or None for a call that never answers."""
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "echo":
        message = args.get("message", "")
        return {"content": [text(message)], "structuredContent": {"message": message}}
    if name == "env":
        names = sorted(os.environ)
        return {"content": [text(" ".join(names))], "structuredContent": {"names": names}}
    if name == "fail":
        return {"content": [text("the test server's fail tool failed")], "isError": True}
    if name == "big":
        return {"content": [text("x" * int(args.get("bytes", 0)))]}
    if name == "hang":
        while True:
            time.sleep(3600)
    raise KeyError(name)


def handle(message, log, transport, headers=None):
    """The response to one JSON-RPC message, or None for none."""
    method = message.get("method")
    msg_id = message.get("id")
    params = message.get("params") or {}
    if msg_id is None:
        return None  # a notification, or a response to us
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "wakeful-test-mcp", "version": "1.0.0"},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        entry = {
            "tool": params.get("name"),
            "arguments": params.get("arguments"),
            "meta": params.get("_meta"),
            "transport": transport,
        }
        if headers is not None:
            entry["headers"] = headers
        log_call(log, entry)
        try:
            result = call_tool(params)
        except KeyError:
            return error(msg_id, -32602, f"no tool named {params.get('name')}")
    else:
        return error(msg_id, -32601, f"no method {method}")
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


def error(msg_id, code, message):
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def serve_stdio(log):
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        response = handle(json.loads(line), log, "stdio")
        if response is not None:
            sys.stdout.write(json.dumps(response) + "\n")
            sys.stdout.flush()


def serve_http(log, port_file, tls=None):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body=None, extra=()):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            for k, v in extra:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            if self.path != "/mcp":
                return self.reply(404)
            length = int(self.headers.get("Content-Length", "0"))
            message = json.loads(self.rfile.read(length))
            headers = {k.lower(): v for k, v in self.headers.items()}
            response = handle(message, log, "http", headers)
            if response is None:
                return self.reply(202)
            extra = []
            if message.get("method") == "initialize":
                extra.append(("Mcp-Session-Id", os.urandom(8).hex()))
            self.reply(200, response, extra)

        def do_GET(self):
            self.reply(405, extra=[("Allow", "POST, DELETE")])

        def do_DELETE(self):
            self.reply(200)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    aside = port_file + ".new"
    with open(aside, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(aside, port_file)
    server.serve_forever()


def main():
    args = sys.argv[1:]
    if not args or args[0] not in ("stdio", "http"):
        sys.exit("usage: mcp-server.py stdio|http --log FILE [--port-file FILE [--cert PEM --key PEM]]")
    opts = dict(zip(args[1::2], args[2::2]))
    log = opts.get("--log")
    if not log:
        sys.exit("mcp-server.py: --log FILE is required")
    if args[0] == "stdio":
        serve_stdio(log)
    else:
        if "--port-file" not in opts:
            sys.exit("mcp-server.py http: --port-file FILE is required")
        tls = (opts["--cert"], opts["--key"]) if "--cert" in opts else None
        serve_http(log, opts["--port-file"], tls)


if __name__ == "__main__":
    main()
