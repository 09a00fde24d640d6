from compliance.selectors.alerts import alert_get, alert_list
from compliance.selectors.casework import attachments_of, comments_of, sars_citing
from compliance.selectors.pep_exposures import PepExposure, pep_exposures_by_user, subject_pep_exposures
from compliance.selectors.rules import rule_get, rule_list, rule_versions
from compliance.selectors.sar import (
    sar_available_moves,
    sar_for_report,
    sar_get,
    sar_list,
    sar_may_return,
    sar_next_step,
    user_under_sar_retention,
)

__all__ = [
    "PepExposure",
    "alert_get",
    "alert_list",
    "attachments_of",
    "comments_of",
    "pep_exposures_by_user",
    "rule_get",
    "rule_list",
    "rule_versions",
    "sar_available_moves",
    "sar_for_report",
    "sar_get",
    "sar_list",
    "sar_may_return",
    "sar_next_step",
    "sars_citing",
    "subject_pep_exposures",
    "user_under_sar_retention",
]
