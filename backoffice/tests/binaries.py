"""``@pytest.mark.binary("tesseract")``: a test that needs a system program skips, saying which and how to
install it, on a machine that does not have it (loaded by the root conftest, like the browser fixture).

The product runs without such programs where the README says so (tesseract: RapidOCR reads the cards
instead); only a test about the program itself needs it. ``.ci/run`` runs the verification tests once
with tesseract hidden from the PATH (``scripts/path-without``), so that promise is checked.
"""

import shutil

import pytest

INSTALL = {
    "tesseract": "apt-get install tesseract-ocr",
    "chromium": "apt-get install chromium",
    "redis-server": "apt-get install redis-server",
}


def missing_reason(names) -> str | None:
    """Why a test needing the programs ``names`` cannot run here, or None when all are on the PATH."""
    missing = [name for name in names if shutil.which(name) is None]
    if not missing:
        return None
    hints = "; ".join(f"{INSTALL[name]} to run it" for name in missing if name in INSTALL)
    return f"{', '.join(missing)} not found on the PATH" + (f" ({hints})" if hints else "")


def pytest_runtest_setup(item):
    names = [name for mark in item.iter_markers("binary") for name in mark.args]
    reason = missing_reason(names)
    if reason:
        pytest.skip(reason)
