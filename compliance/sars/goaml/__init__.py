"""SARs as goAML XML, the format UNODC's goAML system takes reports in, and their validation.

The structure follows goaml.md (schema 5.0.2, no namespace), element order
and required elements exactly: ``report`` (``build_report``,
``render_goaml``), the parties (``parties``), the unit's code lists
(``codes``, settings ``GOAML_*``) and, when ``GOAML_SCHEMA_PATH`` names the
unit's XSD, validation with lxml (``check_report``). See docs/sars.md.
"""

from django.conf import settings

from compliance.sars.goaml.codes import check_code_lists, code, code_list
from compliance.sars.goaml.report import CURRENCY, DRAFT_MARKER, build_report, render_goaml
from compliance.sars.goaml.schema import SchemaCheck, check_report, load_schema

__all__ = [
    "CURRENCY",
    "DRAFT_MARKER",
    "SchemaCheck",
    "build_report",
    "check_report",
    "check_settings",
    "code",
    "code_list",
    "render_goaml",
]


def check_settings() -> None:
    """At start-up: every code list's keys are ours, and the unit's XSD (if configured) is a schema lxml can use."""
    check_code_lists()
    if settings.GOAML_SCHEMA_PATH:
        load_schema(settings.GOAML_SCHEMA_PATH)
