"""WCAG 2.1 AA contrast (4.5:1) in every app's own admin stylesheet: each rule's text on its background (white
where the rule sets none), the PEP links and the vendor review buttons among them. The dark theme's rules
(``.dark ...``) are measured against the dark background."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from backoffice.tests.contrast import AA, contrast

BASE = Path(settings.BASE_DIR)
STYLESHEETS = sorted(
    p for app in ("kyc", "vendors", "verification", "compliance") for p in (BASE / app).rglob("static/**/*.css")
)
WHITE = (255, 255, 255)
DARK = (17, 24, 39)  # the dark theme's page (base 900)
COLOUR = r"(#[0-9a-fA-F]{6}|#fff\b|rgb\(\s*\d+\s+\d+\s+\d+\s*\))"


def rgb(value: str) -> tuple[int, int, int]:
    if value.lower() == "#fff":
        return WHITE
    if value.startswith("#"):
        return tuple(int(value[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(int(n) for n in re.findall(r"\d+", value))


def _pairs():
    for path in STYLESHEETS:
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", text):
            colour = re.search(r"(?<![-\w])color:\s*" + COLOUR, body)
            if not colour:
                continue
            background = re.search(r"background(?:-color)?:\s*" + COLOUR, body)
            dark = ".dark" in selector
            ground = rgb(background.group(1)) if background else (DARK if dark else WHITE)
            yield f"{path.name}: {' '.join(selector.split())}", ground, rgb(colour.group(1))


PAIRS = list(_pairs())


def test_the_stylesheets_are_read():
    names = {p.name for p in STYLESHEETS}
    assert {"peps.css", "kyc_admin.css", "casework.css"} <= names and len(PAIRS) > 20
    assert any("pep-link" in rule for rule, _, _ in PAIRS) and any("vkyc-button-go" in rule for rule, _, _ in PAIRS)


@pytest.mark.parametrize(("rule", "ground", "colour"), PAIRS, ids=[p[0][:60] for p in PAIRS])
def test_text_meets_aa(rule, ground, colour):
    assert contrast(ground, colour) >= AA, f"{rule}: {contrast(ground, colour):.2f}:1"
