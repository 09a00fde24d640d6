"""What the sanctions tests share: the product's own list files, the hostile fixtures, importing them."""

from pathlib import Path

from compliance.sanctions.services.imports import SourceFile, sanctions_import

DATA = Path(__file__).resolve().parent.parent / "data"
FILES = Path(__file__).resolve().parent / "files"
UN_FILE = DATA / "un-consolidated-2026-02-27.xml"
OFAC_SDN, OFAC_ALT, OFAC_ADD = (DATA / f"ofac-2019-{name}.csv" for name in ("sdn", "alt", "add"))
BASE = "/api/v1/admin/aml/sanctions"


def source(path: Path) -> SourceFile:
    return SourceFile(name=path.name, data=path.read_bytes())


def fixture(name: str) -> SourceFile:
    return source(FILES / name)


def import_file(code: str, name: str, *, actor=None, **options):
    """Import one of the small fixtures (``files/``) as list ``code``."""
    return sanctions_import(list_code=code, file=fixture(name), actor=actor, **options)


def import_un(actor=None):
    return sanctions_import(list_code="UN", file=source(UN_FILE), actor=actor)
