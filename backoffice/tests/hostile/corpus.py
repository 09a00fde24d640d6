"""The shared bad-input corpus: hostile and careless inputs every API operation must refuse cleanly.

Operations come from the OpenAPI document (``operations``), so a new endpoint is covered the moment it
is routed. Each ``Case`` builds a request for one operation; the test sends it and expects a 4xx in the
envelope and no row written. Add a case here and every endpoint meets it.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

HUGE_PAGE = "10000000000000000000000"
ODD_SEGMENTS = ["%00", "%0A", "%ED%A0%80", "..%2F..%2Fetc", "x" * 3000, "%E2%80%AE", "%C0%AF"]


@dataclass(frozen=True)
class Operation:
    method: str
    template: str  # /api/v1/admin/users/{id}/
    path_params: tuple[str, ...]
    query_params: dict  # name -> OpenAPI type
    body_fields: tuple[str, ...]

    def path(self, values: dict) -> str:
        return re.sub(r"\{(\w[\w-]*)\}", lambda m: str(values[m.group(1)]), self.template)

    @property
    def is_list(self) -> bool:
        return "page" in self.query_params

    def __str__(self):
        return f"{self.method} {self.template}"


@dataclass(frozen=True)
class Request:
    path: str
    body: bytes | None = None
    content_type: str = "application/json"
    query: str = ""
    expect: tuple[int, ...] = (400,)  # statuses that are a right answer


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Operation, dict], list[Request]]


def operations(schema: dict) -> list[Operation]:
    found = []
    components = schema.get("components", {}).get("schemas", {})
    for template, item in schema["paths"].items():
        for method, op in item.items():
            params = op.get("parameters", [])
            body_fields: tuple[str, ...] = ()
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            ref = content.get("schema", {}).get("$ref", "")
            if ref:
                body_fields = tuple(components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {}))
            found.append(
                Operation(
                    method=method.upper(),
                    template=template,
                    path_params=tuple(p["name"] for p in params if p["in"] == "path"),
                    query_params={p["name"]: p.get("schema", {}).get("type") for p in params if p["in"] == "query"},
                    body_fields=body_fields,
                )
            )
    return found


def _json(value) -> bytes:
    return json.dumps(value).encode()


def _text_in_every_field(op: Operation, text: str) -> bytes:
    fields = op.body_fields or ("field",)
    return _json({name: text for name in fields})


def _many_parameters(count: int) -> str:
    return "&".join(f"p{i}=1" for i in range(count))


CASES = [
    Case("NUL in every body field", lambda op, v: [Request(op.path(v), _text_in_every_field(op, "a\u0000b"))]),
    Case("lone surrogate in every body field", lambda op, v: [Request(op.path(v), _text_in_every_field(op, "\ud800"))]),
    Case("NUL nested in a body", lambda op, v: [Request(op.path(v), _json({"conditions": {"a": [{"b": "\u0000"}]}}))]),
    Case("deep nesting", lambda op, v: [Request(op.path(v), b"[" * 10_000)]),
    Case("duplicate keys", lambda op, v: [Request(op.path(v), b'{"amount": 1, "reason": "x", "amount": 2}')]),
    Case("malformed JSON", lambda op, v: [Request(op.path(v), b'{"a": ')]),
    Case("NaN", lambda op, v: [Request(op.path(v), b'{"amount": NaN}')]),
    Case("huge body", lambda op, v: [Request(op.path(v), b'{"a": "' + b"x" * 40_000 + b'"}', expect=(413,))]),
    Case("wrong content type", lambda op, v: [Request(op.path(v), b"a,b\n1,2", "text/csv", expect=(415,))]),
    Case("NUL in the query", lambda op, v: [Request(op.path(v), query="q=a%00b")]),
    Case(
        "too many query parameters", lambda op, v: [Request(op.path(v), query="&".join(f"p{i}=1" for i in range(60)))]
    ),
    Case(
        "huge page",
        lambda op, v: [Request(op.path(v), query=f"page={HUGE_PAGE}")] if op.is_list else [],
    ),
    Case(
        "numbers beyond any column in the query",
        lambda op, v: [
            Request(op.path(v), query=f"{name}={value}", expect=(200, 400))
            for name, kind in op.query_params.items()
            if kind in ("integer", "number")
            for value in ("9" * 40, "1e999999", "-1", "NaN")
        ],
    ),
    Case(
        "odd path segment",
        lambda op, v: [
            Request(op.path({**v, name: segment}), expect=(400, 404, 405))
            for name in op.path_params
            for segment in ODD_SEGMENTS
        ],
    ),
]

# Bodies above this are 413 in the corpus run (the huge-body case sends 40 KB).
CORPUS_BODY_LIMIT = 20_000
# Query parameters above this are 400 in the corpus run (the case sends 60).
CORPUS_FIELD_LIMIT = 50
