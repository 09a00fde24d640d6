"""axe-core in the browser tests: the script ships in a pinned PyPI package (axe-playwright-python), never fetched."""

from axe_playwright_python.sync_playwright import Axe

# WCAG 2.1 A and AA rules; "best-practice" findings are not failures here.
OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
BLOCKING = {"serious", "critical"}


def serious_violations(page) -> list[str]:
    """Each serious or critical WCAG violation on the open page, as "rule: where (why)"."""
    results = Axe().run(page, options=OPTIONS)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in BLOCKING:
            continue
        for node in violation["nodes"][:5]:
            found.append(
                f"{violation['id']} ({violation['impact']}): {node['target']} {node.get('failureSummary', '')[:200]}"
            )
    return found
