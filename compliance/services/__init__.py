from compliance.services.alerts import alert_assign, alert_raise_many, alert_transition
from compliance.services.casework import attachment_add, comment_add
from compliance.services.pep import pep_bulk_create, pep_create, pep_delete, pep_import, pep_update
from compliance.services.pep_matches import pep_match_review
from compliance.services.rules import rule_catalogue_load, rule_create, rule_toggle, rule_update
from compliance.services.sar import sar_create, sar_create_from_alert, sar_export, sar_return, sar_transition
from compliance.services.sar_drafts import sar_update

__all__ = [
    "alert_assign",
    "alert_raise_many",
    "alert_transition",
    "attachment_add",
    "comment_add",
    "pep_bulk_create",
    "pep_create",
    "pep_delete",
    "pep_import",
    "pep_match_review",
    "pep_update",
    "rule_catalogue_load",
    "rule_create",
    "rule_toggle",
    "rule_update",
    "sar_create",
    "sar_create_from_alert",
    "sar_export",
    "sar_return",
    "sar_transition",
    "sar_update",
]
