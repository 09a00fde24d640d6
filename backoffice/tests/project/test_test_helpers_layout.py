"""Test modules import helpers from helper modules (a folder's ``helpers.py``, ``factories.py``), never from a
``conftest.py`` or from another test module: a conftest only gathers its folder's fixtures, and a test module
imported elsewhere runs its tests twice or drags its fixtures along."""

import ast
from pathlib import Path

from django.conf import settings

APPS = ("backoffice", "kyc", "compliance", "verification", "vendors")


def imported_test_modules() -> list[str]:
    found = []
    root = Path(settings.BASE_DIR)
    for path in sorted(p for app in APPS for p in (root / app).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                last = node.module.rsplit(".", 1)[-1]
                if last == "conftest" or last.startswith("test_"):
                    found.append(f"{path.relative_to(root)}:{node.lineno} imports {'.' * node.level}{node.module}")
    return found


def test_no_module_imports_a_conftest_or_a_test_module():
    assert imported_test_modules() == []
