"""WCAG 2.1 AA contrast of the theme: primary with white, and every colour pair of admin.css."""

import re
from pathlib import Path

import pytest
from django.conf import settings

CSS = Path(settings.BASE_DIR) / "static" / "backoffice" / "admin.css"
AA = 4.5


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def hex_rgb(value: str) -> tuple[int, int, int]:
    value = value.lstrip("#")
    return tuple(int(value[i : i + 2], 16) for i in (0, 2, 4))


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
