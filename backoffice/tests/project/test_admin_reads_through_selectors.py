"""The admin site reads through selectors: no admin module names a model's manager (``.objects``, or
``_default_manager``) outside a ``get_queryset`` method, where Django's admin wants a queryset.

A query written in a page drifts from the API's reads of the same records (its filters, its prefetches, its
404s); in a selector both use one. The test reads the source, so it also covers pages no other test opens.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# every app's admin package; the foundation's own (backoffice.admin: the site, its dashboard) is not held to it yet
ADMIN_DIRS = sorted(
    path
    for pattern in ("compliance/*/admin", "kyc/admin", "vendors/admin", "verification/admin")
    for path in ROOT.glob(pattern)
    if "tests" not in path.relative_to(ROOT).parts  # a test folder named admin (compliance/tests/admin) is no admin
)
CHECKED_APPS = ("compliance", "kyc", "vendors", "verification")
MANAGERS = {"objects", "_default_manager"}


def manager_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) for each use of a manager attribute outside a ``get_queryset`` function."""
    found = []

    def visit(node, inside_get_queryset: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside_get_queryset = inside_get_queryset or node.name == "get_queryset"
        if isinstance(node, ast.Attribute) and node.attr in MANAGERS and not inside_get_queryset:
            found.append((node.lineno, ast.unparse(node)))
        for child in ast.iter_child_nodes(node):
            visit(child, inside_get_queryset)

    visit(ast.parse(source), False)
    return found


def _modules(app: str) -> list[Path]:
    return [p for d in ADMIN_DIRS if d.relative_to(ROOT).parts[0] == app for p in sorted(d.rglob("*.py"))]


@pytest.mark.parametrize("app", CHECKED_APPS)
def test_admin_modules_read_only_through_selectors(app):
    modules = _modules(app)
    assert modules, f"no admin module found under {app}"
    offending = [
        f"{module.relative_to(ROOT)}:{line}: {what}"
        for module in modules
        for line, what in manager_uses(module.read_text())
    ]
    assert not offending, "admin code querying a manager outside get_queryset (use a selector):\n" + "\n".join(
        offending
    )


def test_the_scan_finds_a_manager_outside_get_queryset_and_allows_it_inside():
    source = (
        "class A:\n"
        "    def get_queryset(self, request):\n"
        "        return self.model._default_manager.all()\n"
        "    def page(self, request):\n"
        "        return Alert.objects.filter(x=1)\n"
        "def card(request):\n"
        "    return Staff.objects.count()\n"
    )
    assert manager_uses(source) == [(5, "Alert.objects"), (7, "Staff.objects")]
