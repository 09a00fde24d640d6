"""WCAG 2.1 AA contrast of the theme: primary with white, and every colour pair of admin.css."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from backoffice.tests.contrast import AA, contrast, hex_rgb

CSS = Path(settings.BASE_DIR) / "static" / "backoffice" / "admin.css"


def theme(weight: str) -> tuple[int, int, int]:
    return tuple(int(part) for part in settings.UNFOLD["COLORS"]["primary"][weight].split())


WHITE = (255, 255, 255)


@pytest.mark.parametrize("weight", ["600", "700", "800"])
def test_white_on_the_primary_buttons_and_primary_text_on_white(weight):
    assert contrast(theme(weight), WHITE) >= AA


def _pairs():
    """(rule, background, colour) for every CSS rule that sets both as hex colours."""
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", CSS.read_text()):
        background = re.search(r"background:\s*(#[0-9a-fA-F]{6})", body)
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", body)
        if background and colour:
            yield selector.strip(), background.group(1), colour.group(1)


PAIRS = list(_pairs())


def test_the_stylesheet_has_colour_pairs_to_check():
    assert len(PAIRS) >= 10


@pytest.mark.parametrize("selector,background,colour", PAIRS, ids=[p[0][:40] for p in PAIRS])
def test_every_colour_pair_of_the_stylesheet_meets_aa(selector, background, colour):
    assert contrast(hex_rgb(background), hex_rgb(colour)) >= AA, selector
