"""The role table of the contract, in one place.

Every API permission check and every admin-site permission check reads
``CAPABILITIES``; nothing else decides who may do what.
"""

from backoffice.choices import StaffRole

_SUPPORT = {
    "users.read",
    "users.update",
    "vendors.kyc.read",
}
_COMPLIANCE = _SUPPORT | {
    "users.archive",
    "users.investigate",
    "sars.read",
    "sars.file",
    "sars.review",
    "alerts.read",
    "alerts.manage",
    "peps.manage",
    "rules.read",
    "verification.run",
    "verification.read",
    "vendors.kyc.write",
    "vendors.kyc.decide",
    # cash threshold reports: read them, prepare batches (contract: cash threshold reports)
    "ctr.read",
    "ctr.prepare",
    # the payment platform's intake: the dry run, and deciding held transactions
    "transactions.screen",
    "transactions.review",
    # sanctions lists: read the lists, their versions and entries (contract: sanctions lists and screening)
    "sanctions.read",
    # confirm or dismiss a sanctions match (a confirmation freezes the customer)
    "sanctions.review",
}
_MLRO = _COMPLIANCE | {
    "sars.approve",
    "rules.write",
    # submit threshold-report batches and record the unit's answers; the regulator statistics
    "ctr.submit",
    "regulator.stats",
    # deciding another person's rule change under four eyes (RULE_FOUR_EYES)
    "rules.approve",
    # the audit log and the walk of its chain (contract: audit trail integrity)
    "audit.read",
    # import a new version of a sanctions list
    "sanctions.import",
    # lifting a sanctions freeze (never the person who froze: kyc.services.freeze)
    "users.unfreeze",
}
_FINANCE = {
    "users.read",
    "users.credit",
}

CAPABILITIES: dict[str, frozenset[str]] = {
    StaffRole.SUPPORT: frozenset(_SUPPORT),
    StaffRole.COMPLIANCE_OFFICER: frozenset(_COMPLIANCE),
    StaffRole.MLRO: frozenset(_MLRO),
    StaffRole.FINANCE: frozenset(_FINANCE),
    # admin holds every capability, including ones no other role has
    # (users.purge, staff.manage, transactions.record: recording a payment as the platform would; webhooks.manage:
    # the payment platform's webhook endpoints).
    StaffRole.ADMIN: frozenset(
        _MLRO | _FINANCE | {"users.purge", "staff.manage", "transactions.record", "webhooks.manage"}
    ),
}

# Roles that may see anything about SARs and alerts. Support and finance must
# never learn that a report exists (tipping-off).
COMPLIANCE_ROLES = frozenset({StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN})

# Admin-site permissions ("app_label.codename") granted per capability. The
# foundation lists its own models; each app adds its models from its
# AppConfig.ready() with ``grant_admin_permissions``, so the admin site follows
# the same table without the foundation knowing the apps.
ADMIN_SITE_PERMISSIONS: dict[str, set[str]] = {
    "staff.manage": {
        "backoffice.view_staff",
        "backoffice.add_staff",
        "backoffice.change_staff",
        "backoffice.delete_staff",
        "backoffice.view_servicekey",
        "backoffice.add_servicekey",
        "backoffice.change_servicekey",
    },
    "audit.read": {"backoffice.view_auditlog"},
    "webhooks.manage": {
        "backoffice.view_webhookendpoint",
        "backoffice.add_webhookendpoint",
        "backoffice.change_webhookendpoint",
        "backoffice.view_webhookdelivery",
    },
}


def grant_admin_permissions(capability: str, permissions: set[str]) -> None:
    """Holders of ``capability`` get these admin-site permissions (an unknown capability is a bug: refused)."""
    known = set().union(*CAPABILITIES.values())
    if capability not in known:
        raise ValueError(f"unknown capability {capability!r}")
    ADMIN_SITE_PERMISSIONS.setdefault(capability, set()).update(permissions)


def has_capability(role: str | None, capability: str) -> bool:
    return bool(role) and capability in CAPABILITIES.get(role, frozenset())


def admin_site_permissions(role: str | None) -> set[str]:
    perms: set[str] = set()
    for capability in CAPABILITIES.get(role, frozenset()):
        perms |= ADMIN_SITE_PERMISSIONS.get(capability, set())
    return perms
