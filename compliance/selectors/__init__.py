from compliance.selectors.alerts import alert_get, alert_list
from compliance.selectors.rules import rule_get, rule_list, rule_versions
from compliance.selectors.sar import sar_available_moves, sar_for_report, sar_get, sar_list, user_under_sar_retention

__all__ = [
    "alert_get",
    "alert_list",
    "rule_get",
    "rule_list",
    "rule_versions",
    "sar_available_moves",
    "sar_for_report",
    "sar_get",
    "sar_list",
    "user_under_sar_retention",
]
