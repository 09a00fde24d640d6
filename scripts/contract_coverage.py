#!/usr/bin/env python3
"""List the modules that no import contract places (`make lint` runs it; exit 1 when any is left out).

import-linter checks only what its contracts name: a module in no layer can import anything. So every room
must be named in a layers contract of its container, where a container is each root package and each Django
app inside one (a package with an ``apps.py``: every compliance sub-domain), and a room is a direct child of
the container (a ``.py`` file or a package). A room named by a contract covers every module under it. A root
package is covered when any contract names it.

    python scripts/contract_coverage.py [pyproject.toml]
"""

import sys
import tomllib
from pathlib import Path


def _names(layer: str) -> set[str]:
    """The rooms of one layer entry: ``"(api) | admin : demo"`` -> {"api", "admin", "demo"}."""
    parts = layer.replace(":", "|").split("|")
    return {part.strip().strip("()").strip() for part in parts if part.strip()}


def named_rooms(config: dict) -> tuple[dict[str, set[str]], set[str]]:
    """(rooms named by a layers contract, by container; root packages named by any contract)."""
    by_container: dict[str, set[str]] = {}
    roots: set[str] = set()
    for contract in config["tool"]["importlinter"].get("contracts", []):
        if contract.get("type") == "layers":
            names = set().union(*(_names(layer) for layer in contract["layers"]))
            containers = contract.get("containers") or [""]
            for container in containers:
                by_container.setdefault(container, set()).update(names)
            if not contract.get("containers"):
                roots.update(name.split(".")[0] for name in names)
        for key in ("modules", "source_modules", "forbidden_modules"):
            roots.update(module.split(".")[0] for module in contract.get(key, []))
    return by_container, roots


def rooms(package: Path) -> list[str]:
    """The direct children of ``package`` that are Python modules (``.py`` files, folders with ``__init__.py``)."""
    found = [p.stem for p in package.glob("*.py") if p.name != "__init__.py"]
    found += [p.name for p in package.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    return sorted(found)


def containers(base: Path, root_packages: list[str]) -> list[str]:
    """Each root package, and each package under one that is a Django app of its own (has ``apps.py``)."""
    found = list(root_packages)
    for root in root_packages:
        for apps in sorted((base / root).rglob("apps.py")):
            package = apps.parent
            if package != base / root and (package / "__init__.py").exists():
                found.append(".".join(package.relative_to(base).parts))
    return found


def uncovered(pyproject: Path) -> list[tuple[str, int]]:
    """(module path, how many .py files it holds) for every room no contract names."""
    base = pyproject.parent
    config = tomllib.loads(pyproject.read_text())
    root_packages = config["tool"]["importlinter"]["root_packages"]
    by_container, roots = named_rooms(config)
    missing = [(root, _files(base / root)) for root in root_packages if root not in roots]
    for container in containers(base, root_packages):
        folder = base.joinpath(*container.split("."))
        named = by_container.get(container, set())
        for room in rooms(folder):
            if room not in named:
                path = folder / room
                missing.append((f"{container}.{room}", _files(path) if path.is_dir() else 1))
    return missing


def _files(path: Path) -> int:
    return sum(1 for _ in path.rglob("*.py"))


def main(argv: list[str]) -> int:
    pyproject = Path(argv[1] if len(argv) > 1 else Path(__file__).resolve().parent.parent / "pyproject.toml")
    missing = uncovered(pyproject)
    for module, files in missing:
        print(f"not in any contract: {module} ({files} module{'s' if files != 1 else ''})")
    total = sum(files for _, files in missing)
    print(f"{len(missing)} rooms, {total} modules outside every contract")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
