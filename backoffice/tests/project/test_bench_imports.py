"""The benchmarks run on purpose, not in CI, so a moved module breaks them silently (``make bench-aml`` once
died on an import a refactor had moved). Every project name a benchmark imports must still resolve."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
APPS = {"backoffice", "vendors", "kyc", "compliance", "verification", "names"}


def project_imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in APPS:
                yield node.lineno, node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in APPS:
                    yield node.lineno, alias.name, []


def resolves(module: str, name: str | None) -> bool:
    try:
        found = importlib.import_module(module)
    except ImportError:
        return False
    if name is None or hasattr(found, name):
        return True
    try:
        importlib.import_module(f"{module}.{name}")
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("script", sorted((ROOT / "bench").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_project_name_a_benchmark_imports_exists(script):
    missing = [
        f"{script.name}:{line} {module}{'.' + name if name else ''}"
        for line, module, names in project_imports(script)
        for name in names or [None]
        if not resolves(module, name)
    ]
    assert not missing, missing


def test_the_check_sees_a_missing_name():
    assert not resolves("compliance.aml.services.rules", "rule_catalogue_load")
    assert resolves("compliance.aml.services.catalogue", "rule_catalogue_load")
