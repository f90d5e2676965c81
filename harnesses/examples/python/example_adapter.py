#!/usr/bin/env python3
"""A tiny but honest OAP harness in Python (standard library only), built on oap_adapter.py.

Claims Level 1 with the JSON encoding and the project discovery root. `validate` is a structural
check (required members, oap major/minor, kind, metadata.name/description, spec.role.instructions),
not the whole JSON Schema; `instantiate` handles profiles whose spec is only role.instructions;
everything else is declined. The handshake's `unimplemented` list says all of this.

    oap-conform smoke --adapter "python3 harnesses/examples/python/example_adapter.py"
"""

import decimal
import hashlib
import json
import os
import re
import sys
import uuid

# The SDK lives in the oap-conform package; an adapter made with `oap-conform init --lang python` has a
# copy of oap_adapter.py next to it instead, and needs no sys.path line.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from oap_adapter import PROTOCOL_VERSION, UNSUPPORTED_PROTOCOL_VERSION, Adapter, Decline, PromptBuilder, RpcError  # noqa: E402

TOP_LEVEL = ("oap", "kind", "extends", "metadata", "spec", "state", "history")
NAME = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$")
MINOR = 0  # highest OAP 1.x minor version implemented

adapter = Adapter()


def escape(key):
    return key.replace("~", "~0").replace("/", "~1")


# SPEC 2.2 digests are the harness's own, like everything else here: the runner judges the recorded
# spec digest (L1-I8) against its own. A harness with a JCS library uses that; this is one in the
# standard library.
def _es_number(value):
    """ECMAScript Number::toString of a finite double, which is how RFC 8785 writes numbers."""
    if value == 0:
        return "0"  # also -0
    if value < 0:
        return "-" + _es_number(-value)
    # repr() is the shortest string that round-trips, the same digits ECMAScript chooses.
    sign, digits, exponent = decimal.Decimal(repr(value)).as_tuple()
    s = "".join(map(str, digits)).rstrip("0") or "0"
    k = len(s)
    n = len(digits) + exponent  # value = 0.s * 10^n
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + s
    e = n - 1
    return (s if k == 1 else s[0] + "." + s[1:]) + "e" + ("+" if e > 0 else "-") + str(abs(e))


def canonical_json(value):
    """RFC 8785 (JCS): the canonical JSON text of a value from json.loads (dict, list, str, int,
    float, bool, None). Numbers are written as ECMAScript writes doubles (so 1.0 -> "1",
    1e21 -> "1e+21", integers beyond 2**53 lose precision exactly as in JavaScript) and object keys
    are sorted by UTF-16 code units. Raises ValueError for NaN and infinities, which JCS cannot
    represent (OAP requires rejecting them).
    """
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if abs(value) < 2 ** 53 else canonical_json(float(value))
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("non-finite number")
        return _es_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: kv[0].encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical_json(v) for k, v in items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    raise TypeError("%s is not JSON data" % type(value).__name__)


def spec_digest(doc):
    """SPEC 2.2 spec digest (what session.spec_digest reports): "sha256:" + hex SHA-256 of the JCS form
    of {metadata, spec}, metadata without the applicator-owned revision and updated_at and the
    resolver-owned trust. Compare with `oap-conform validate --digest FILE`."""
    metadata = {k: v for k, v in doc["metadata"].items() if k not in ("revision", "updated_at", "trust")}
    return "sha256:" + hashlib.sha256(canonical_json({"metadata": metadata, "spec": doc["spec"]}).encode("utf-8")).hexdigest()


def check_profile(doc):
    """Returns a list of issues {category, pointer, message}; empty when the document passes."""
    issues = []

    def issue(category, pointer, message):
        issues.append({"category": category, "pointer": pointer, "message": message})

    if not isinstance(doc, dict):
        issue("schema", "", "a profile is a JSON object")
        return issues
    for key in ("oap", "kind", "metadata", "spec"):
        if key not in doc:
            issue("schema", "", "missing required member " + key)
    for key in doc:
        if key not in TOP_LEVEL:
            issue("schema", "/" + escape(key), "unknown member " + key)
    if "oap" in doc:
        m = re.match(r"^(\d+)\.(\d+)$", doc["oap"]) if isinstance(doc["oap"], str) else None
        if not m:
            issue("schema", "/oap", 'oap must be "MAJOR.MINOR"')
        elif int(m.group(1)) != 1:
            issue("version-major", "/oap", "oap major version %s is not implemented" % m.group(1))
        elif int(m.group(2)) > MINOR:
            issue("version-minor", "/oap", "oap 1.%s is newer than the implemented 1.%d" % (m.group(2), MINOR))
    if "kind" in doc and doc["kind"] != "AgentProfile":
        issue("kind", "/kind", "unknown kind %s" % json.dumps(doc["kind"]))
    md = doc.get("metadata")
    if "metadata" in doc:
        if not isinstance(md, dict):
            issue("schema", "/metadata", "metadata must be an object")
        else:
            if not isinstance(md.get("name"), str) or not NAME.match(md["name"]):
                issue("schema", "/metadata/name", "metadata.name must be a lowercase slug")
            if not isinstance(md.get("description"), str) or not md["description"]:
                issue("schema", "/metadata/description", "metadata.description is required")
    spec = doc.get("spec")
    if "spec" in doc:
        if not isinstance(spec, dict):
            issue("schema", "/spec", "spec must be an object")
        elif not isinstance(spec.get("role"), dict):
            issue("schema", "/spec", "spec.role is required")
        elif not isinstance(spec["role"].get("instructions"), str) or not spec["role"]["instructions"]:
            issue("schema", "/spec/role/instructions", "spec.role.instructions is required")
    return issues


def load(path):
    """(document or None, issues) for a .agent.json file."""
    if not path.endswith(".json"):
        raise Decline("skipped", "the example harness reads .agent.json files only")
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return None, [{"category": "parse", "pointer": "", "message": "not JSON: %s" % e}]
    issues = check_profile(doc)
    return (None if issues else doc), issues


@adapter.method("initialize")
def initialize(params):
    if PROTOCOL_VERSION not in params.get("protocol_versions", []):
        raise RpcError(UNSUPPORTED_PROTOCOL_VERSION, "this adapter speaks protocol %s only" % PROTOCOL_VERSION)
    return {
        "protocol_version": PROTOCOL_VERSION,
        "implementation": {"name": "oap-example-python", "version": "0.1.0", "language": "python"},
        "level": 1,
        "encodings": ["json"],
        "discovery_roots": ["project"],
        "unimplemented": [
            "full JSON Schema validation (structural checks only)",
            "yaml and md encodings",
            "managed, user and plugin discovery roots",
            "profiles whose spec has anything beyond role.instructions",
            "state, deltas and write-back (Level 2)",
            "extends, MCP, skills, external memory, delegation (Level 3)",
        ],
    }


@adapter.method("validate")
def validate(params):
    source = params["document"]
    if "content" in source:
        if source["encoding"] != "json":
            raise Decline("skipped", "the example harness reads JSON only, not %s" % source["encoding"])
        try:
            doc = json.loads(source["content"])
        except ValueError as e:
            return {"valid": False, "errors": [{"category": "parse", "pointer": "", "message": "not JSON: %s" % e}], "warnings": []}
        issues = check_profile(doc)
    else:
        doc, issues = load(source["path"])
    result = {"valid": not issues, "errors": issues, "warnings": []}
    if doc is not None:
        result["kind"] = doc["kind"]
    return result


def locate(params):
    project = params["roots"].get("project", params["workspace"])
    agents = os.path.join(project, ".agents")
    selector = params["profile"]
    if "path" in selector:
        doc, issues = load(selector["path"])
        if issues:
            return None, issues
        inside = os.path.realpath(selector["path"]).startswith(os.path.realpath(agents) + os.sep)
        return (doc, selector["path"], "project" if inside else "imported"), []
    found = []
    names = sorted(os.listdir(agents)) if os.path.isdir(agents) else []
    for name in names:
        if name.endswith(".agent.json"):
            path = os.path.join(agents, name)
            doc, issues = load(path)
            if doc is not None and doc["metadata"]["name"] == selector["name"]:
                found.append((doc, path, "project"))
    if not found:
        return None, [{"category": "io", "pointer": "", "message": "no profile named %s in %s" % (selector["name"], agents)}]
    if len(found) > 1:
        return None, [{"category": "collision", "pointer": "/metadata/name", "message": "%d profiles named %s" % (len(found), selector["name"])}]
    return found[0], []


@adapter.method("instantiate")
def instantiate(params):
    located, issues = locate(params)
    if issues:
        return {"status": "rejected", "errors": issues, "warnings": []}
    doc, path, trust = located
    if set(doc["spec"]) != {"role"} or set(doc["spec"]["role"]) != {"instructions"} or "state" in doc or "extends" in doc:
        raise Decline("skipped", "the example harness instantiates only profiles whose spec is just role.instructions")
    policy = params["policy"]
    perms = policy["permissions"]
    budgets = policy.get("budgets", {})
    prompt = (PromptBuilder()
              .section("preamble", "You are running in the oap-conform example harness. Follow the harness rules below.", True)
              .section("instructions", doc["spec"]["role"]["instructions"], True)
              .section("postamble", "Harness rules: never act outside the workspace.", True)
              .build())
    default = perms["default"]
    return {
        "status": "instantiated",
        "session_id": str(uuid.uuid4()),
        "session": {
            "name": doc["metadata"]["name"],
            "revision": doc["metadata"].get("revision", 1),
            "spec_digest": spec_digest(doc),
            "trust": trust,
            "path": path,
        },
        "effective": {
            "tools": [],  # allowlist is the default policy and the profile allows nothing
            "permissions": {"default": default, "shell": perms.get("shell", default),
                            "edit": perms.get("edit", default), "network": perms.get("network", default)},
            "rules": [{"tool": r.get("tool", "*"), "action": r.get("action", "*"), "target": r.get("target", "*"),
                       "decision": r["decision"]} for r in perms.get("rules", [])],
            "filesystem": {"read_roots": list(policy["filesystem"]["read_roots"]),
                           "write_roots": list(policy["filesystem"]["write_roots"]), "deny_paths": []},
            "hosts": [],
            "memory": {"mode": "off", "scopes": [], "stores": []},
            "budgets": {k: budgets.get(k) for k in ("max_turns", "max_tool_calls", "timeout_seconds", "max_cost_usd",
                                                      "max_context_tokens", "max_state_tokens", "max_state_bytes")},
            "model": dict(policy["models"]["default"], rule=4),  # no spec.model: SPEC 3.3 rule 4
            "mcp_servers": [],
            "skills": [],
            "subagents": {"allow": [], "max_depth": policy["subagents"]["max_depth"],
                          "max_concurrent": policy["subagents"]["max_concurrent"]},
            "writeback": "propose",
        },
        "prompt": prompt,
        "adjustments": [],
        "warnings": [],
    }


if __name__ == "__main__":
    adapter.serve()
