"""What a newcomer meets first: the README, and what its two commands do (read from make's own plan of
them, ``make -n``: nothing is run).

``make run`` installs only what serving needs and shows the product as a bank runs it (maker-checker on,
a goAML reporting-entity id); ``make test`` installs the development tools too.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def plan(target: str) -> list[str]:
    # -B: as on a fresh checkout, every step is due; -n: print the steps, run none
    result = subprocess.run(
        ["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    return [line for line in lines if "pip install" in line and " -r " in line]


@needs_make
def test_make_run_installs_only_what_serving_needs():
    steps = installs(plan("run"))
    assert steps and all("-r requirements.txt" in step for step in steps), steps
    assert not any("requirements-dev.txt" in step for step in steps)


@needs_make
def test_make_test_installs_the_development_tools():
    assert any("-r requirements-dev.txt" in step for step in installs(plan("test")))


@needs_make
def test_make_run_migrates_seeds_and_serves_with_maker_checker_and_a_reporting_entity_id():
    lines = plan("run")
    for command in ("manage.py migrate", "manage.py seed_demo", "./scripts/run"):
        step = next(line for line in lines if command in line)
        assert "CREDIT_APPROVAL_THRESHOLD=" in step and "GOAML_RENTITY_ID=" in step, step
        assert "RULE_FOUR_EYES=" in step, step


def test_the_readme_calls_no_built_area_unbuilt():
    from django.urls import reverse

    readme = (ROOT / "README.md").read_text()
    # identity verification is built: its endpoints are routed, and its pages are listed among the areas
    assert reverse("verification-list-jobs").startswith("/api/v1/")
    assert "not built" not in readme and "docs/verification.md" in readme
