"""Demo sanctions lists: the UN consolidated list and OFAC's SDN list, from the product's own copies of the
publishers' files, imported by the demo MLRO through the same service as the API, the command and the admin.

Idempotent: importing a file again writes nothing (its hash is the version's).
"""

from pathlib import Path

from backoffice.models import Staff
from compliance.sanctions.services.imports import SourceFile, sanctions_import

DATA = Path(__file__).resolve().parent / "data"
UN_FILE = "un-consolidated-2026-02-27.xml"
OFAC_FILES = ("ofac-2019-sdn.csv", "ofac-2019-alt.csv", "ofac-2019-add.csv")


def _source(name: str) -> SourceFile:
    return SourceFile(name=name, data=(DATA / name).read_bytes())


def seed(stdout) -> None:
    mlro = Staff.objects.filter(email="mlro@vikela.demo").first()
    sdn, alt, add = (_source(name) for name in OFAC_FILES)
    for code, files in (("UN", {"file": _source(UN_FILE)}), ("OFAC", {"file": sdn, "alt": alt, "add": add})):
        result = sanctions_import(list_code=code, actor=mlro, **files)
        stdout.write(
            f"Sanctions list {code}: {result.entries:,} entries ({result.added:,} added, {result.changed:,} changed, "
            f"{result.removed:,} removed, {result.unchanged:,} unchanged)"
        )
