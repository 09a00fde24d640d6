"""The adversarial labelled sets in bench/names are what their documented procedure generates, nothing edited."""

import importlib.util
from pathlib import Path

BENCH_NAMES = Path(__file__).resolve().parents[3] / "bench" / "names"


def _generator():
    spec = importlib.util.spec_from_file_location("adversarial", BENCH_NAMES / "adversarial.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_sets_are_the_procedures_output():
    generator = _generator()
    for name, half in generator.OUTPUTS.items():
        assert (BENCH_NAMES / name).read_text(encoding="utf-8") == generator.render(generator.generate(half)), name


def test_dev_and_test_draw_from_disjoint_names():
    generator = _generator()
    dev, test = generator.Pools(0).names(), generator.Pools(1).names()
    assert dev and test and not dev & test


def test_every_category_is_labelled_by_how_it_was_made():
    generator = _generator()
    rows = generator.generate(0)
    for row in rows:
        expected = "1" if row["category"] in generator.POSITIVES else "0"
        assert row["label"] == expected, row
    assert {row["category"] for row in rows} == set(generator.POSITIVES) | set(generator.NEGATIVES)
