"""What sanctions screening registers when the app is ready (called from ``SanctionsConfig.ready``).

Kept apart from the lists' own wiring: the hooks of kyc and aml it answers, its roles' admin permissions, the
audit log's names and the sidebar's match queue.
Imported by ``SanctionsConfig.ready()``, when every app's models are loaded.
"""

from backoffice import roles
from backoffice.admin import audit_names, navigation
from backoffice.http.warmup import server_warm_up
from compliance.aml import hooks as aml_hooks
from compliance.sanctions import hooks as sanctions_hooks
from compliance.sanctions.selectors.screening import sanctions_index, sanctions_index_reset
from compliance.sanctions.services.decision import sanctions_decision_hits
from compliance.sanctions.services.screening import on_entries_changed, screen_user_after_commit
from kyc import hooks as kyc_hooks


def register() -> None:
    kyc_hooks.user_registered.register(screen_user_after_commit)
    kyc_hooks.user_name_changed.register(screen_user_after_commit)
    aml_hooks.decision_screeners.register(sanctions_decision_hits)
    # this process's index is rebuilt at once after its own import; the others see the revision within seconds
    sanctions_hooks.entries_changed.register(sanctions_index_reset)
    sanctions_hooks.entries_changed.register(on_entries_changed)
    # a server process builds the index before its first decision with a counterparty name needs it
    server_warm_up.register(sanctions_index)
    roles.grant_admin_permissions(
        "sanctions.review",
        {"compliance.view_sanctionsmatch", "compliance.change_sanctionsmatch", "compliance.view_sanctionsmatchevent"},
    )
    audit_names.register("sanctions_match", "compliance.SanctionsMatch")
    # after every domain's seeder (the lists' loading among them): matches need entries and staff
    navigation.add_section(
        title="Sanctions screening",
        position=42,
        items=[
            navigation.Item(
                "Sanctions matches",
                "gpp_maybe",
                "admin:compliance_sanctionsmatch_changelist",
                navigation.has_capability("sanctions.review"),
            ),
        ],
    )
