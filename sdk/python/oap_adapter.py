"""OAP conformance adapter SDK for Python: one file, standard library only.

Copy this file next to your adapter (`oap-conform init --lang python` does). It is a snapshot: after
upgrading oap-conform, copy it again. It speaks the oap-conform adapter protocol (JSON-RPC 2.0,
one JSON message per line on stdin/stdout; stderr is your log), dispatches requests to the
handlers you register, turns Decline exceptions into the protocol's NOT_IMPLEMENTED / SKIPPED
errors and Refuse exceptions into a refusal of the document (digest, write_back), and builds prompts
whose section map uses UTF-8 byte offsets. Digests are your harness's own (SPEC 2.2; the runner judges
them, L1-I8 and L3-G2): the Python example harness shows a standard-library one.

    from oap_adapter import Adapter, Decline, PromptBuilder

    adapter = Adapter()

    @adapter.method("initialize")
    def initialize(params):
        return {...}

    if __name__ == "__main__":
        adapter.serve()

A method without a handler answers NOT_IMPLEMENTED, which the runner records as a skip (never a pass).
"""

import json
import os
import sys
import traceback

PROTOCOL_VERSION = "1.0"

# JSON-RPC error codes of the protocol (protocol/PROTOCOL.md).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
NOT_IMPLEMENTED = -32001
SKIPPED = -32002
UNSUPPORTED_PROTOCOL_VERSION = -32003
UNKNOWN_SESSION = -32004

METHODS = (
    "initialize", "validate", "discover", "instantiate", "describe_session", "instantiate_subagent",
    "end_session", "apply_delta", "digest", "write_back", "shutdown",
)


class Decline(Exception):
    """Raise from a handler to decline: kind is "not-implemented" or "skipped"; reason is recorded."""

    def __init__(self, kind, reason):
        if kind not in ("not-implemented", "skipped"):
            raise ValueError("Decline kind must be 'not-implemented' or 'skipped'")
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


# Methods whose answer may be a refusal of the document: {"status": "rejected", "errors": [...], "warnings": [...]}.
REFUSABLE = ("digest", "write_back", "instantiate", "instantiate_subagent")


def issue(category, pointer, message, code=None):
    """An AdapterIssue: category from the protocol's vocabulary, pointer an RFC 6901 JSON Pointer."""
    out = {"category": category, "pointer": pointer, "message": message}
    if code is not None:
        out["code"] = code
    return out


def refused(errors, warnings=None):
    """The answer of a digest or write_back handler whose harness refuses the document (at least one error)."""
    if not errors:
        raise ValueError("a refusal needs at least one error issue saying why")
    return {"status": "rejected", "errors": list(errors), "warnings": list(warnings or [])}


class Refuse(Exception):
    """Raise from a digest, write_back or instantiate handler when the harness refuses the document.

    The SDK answers with the refusal result (`refused(errors, warnings)`), a normal answer the
    runner judges, not a protocol error: refusing an invalid document is right, refusing a valid
    one is a finding of the requirement the case checks.
    """

    def __init__(self, errors, warnings=None):
        super().__init__("; ".join(e.get("message", "") for e in errors) or "refused")
        self.result = refused(errors, warnings)


class RpcError(Exception):
    """Raise from a handler to answer with a specific JSON-RPC error (e.g. UNSUPPORTED_PROTOCOL_VERSION)."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class Adapter:
    def __init__(self):
        self._handlers = {}

    def method(self, name):
        """Decorator registering the handler for a protocol method: handler(params) -> result dict."""
        if name not in METHODS:
            raise ValueError("unknown protocol method %r" % name)

        def register(fn):
            self._handlers[name] = fn
            return fn

        return register

    def handle(self, method, params):
        """Dispatch one request; returns the result or raises Decline / RpcError / anything."""
        if method not in METHODS:
            raise RpcError(METHOD_NOT_FOUND, "unknown method %s" % method)
        handler = self._handlers.get(method)
        if handler is None:
            if method == "shutdown":
                return {}
            raise Decline("not-implemented", "%s is not implemented by this adapter" % method)
        return handler(params if params is not None else {})

    def _respond(self, request_id, method, params):
        try:
            return {"jsonrpc": "2.0", "id": request_id, "result": self.handle(method, params)}
        except Decline as d:
            code = SKIPPED if d.kind == "skipped" else NOT_IMPLEMENTED
            return {"jsonrpc": "2.0", "id": request_id,
                    "error": {"code": code, "message": d.kind, "data": {"reason": d.reason}}}
        except Refuse as r:
            if method in REFUSABLE:
                return {"jsonrpc": "2.0", "id": request_id, "result": r.result}
            message = "Refuse raised from %s, which cannot answer with a refusal" % method
            return {"jsonrpc": "2.0", "id": request_id, "error": {"code": INTERNAL_ERROR, "message": message}}
        except RpcError as e:
            err = {"code": e.code, "message": e.message}
            if e.data is not None:
                err["data"] = e.data
            return {"jsonrpc": "2.0", "id": request_id, "error": err}
        except Exception as e:  # the adapter's own bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            message = (str(e) or type(e).__name__).splitlines()[0]
            return {"jsonrpc": "2.0", "id": request_id, "error": {"code": INTERNAL_ERROR, "message": message}}

    def serve(self, stdin=None, stdout=None):
        """Read requests line by line until end of input or shutdown; one response line each.

        While serving, the protocol owns the process's real stdout: sys.stdout, and file descriptor 1
        (so child processes and C libraries too), point at stderr instead, so a stray print() lands
        in your log rather than in the middle of a response. Both are restored when serve returns.
        """
        stdin = stdin if stdin is not None else sys.stdin.buffer
        if stdout is not None:
            self._serve(stdin, stdout)
            return
        sys.stdout.flush()
        try:
            fd = sys.stdout.fileno()
            protocol_fd = os.dup(fd)
        except (AttributeError, OSError, ValueError):  # not a real file (an embedding replaced it)
            self._serve(stdin, sys.stdout.buffer)
            return
        saved, restore_fd = sys.stdout, os.dup(fd)
        os.dup2(sys.stderr.fileno(), fd)
        sys.stdout = sys.stderr
        try:
            with os.fdopen(protocol_fd, "wb") as protocol:
                self._serve(stdin, protocol)
        finally:
            sys.stdout = saved
            sys.stderr.flush()
            os.dup2(restore_fd, fd)
            os.close(restore_fd)

    def _serve(self, stdin, stdout):
        for raw in stdin:
            line = raw.strip()
            if not line:
                continue
            try:
                message = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                _write(stdout, {"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": "request is not JSON"}})
                continue
            request_id = message.get("id") if isinstance(message, dict) else None
            if (not isinstance(message, dict) or message.get("jsonrpc") != "2.0"
                    or not isinstance(message.get("method"), str) or not isinstance(request_id, (int, str))
                    or isinstance(request_id, bool)):
                _write(stdout, {"jsonrpc": "2.0", "id": request_id if isinstance(request_id, (int, str)) else None,
                                "error": {"code": INVALID_REQUEST, "message": "not a JSON-RPC 2.0 request with an id"}})
                continue
            method = message["method"]
            _write(stdout, self._respond(request_id, method, message.get("params")))
            if method == "shutdown":
                break


def _write(stdout, message):
    # ensure_ascii=False keeps text as UTF-8; JSON never contains a raw newline, so one line per message.
    stdout.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
    stdout.flush()


class PromptBuilder:
    """Builds a rendered prompt and its section map with UTF-8 byte offsets (start inclusive, end exclusive).

    Python string indices count code points; the protocol counts UTF-8 bytes, so offsets are kept in bytes.
    """

    def __init__(self, separator="\n\n"):
        self._separator = separator
        self._chunks = []
        self._bytes = 0
        self._sections = []

    def raw(self, text):
        """Append text that belongs to no section."""
        self._chunks.append(text)
        self._bytes += len(text.encode("utf-8"))
        return self

    def section(self, kind, text, trusted):
        if self._chunks:
            self.raw(self._separator)
        start = self._bytes
        self.raw(text)
        self._sections.append({"kind": kind, "start": start, "end": self._bytes, "trusted": bool(trusted)})
        return self

    def state(self, body, open_line, close_line):
        """The state section: untrusted, first line `open_line`, last line `close_line`."""
        inner = body if body.endswith("\n") else body + "\n"
        return self.section("state", open_line + "\n" + inner + close_line, False)

    def build(self, included=None, elided=None, notice=None):
        return {
            "text": "".join(self._chunks),
            "sections": [dict(s) for s in self._sections],
            "state": {"included": list(included or []), "elided": list(elided or []), "notice": notice},
        }
