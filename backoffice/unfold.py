"""The admin site's look: django-unfold's settings, kept in one place."""

from django.templatetags.static import static
from django.urls import reverse_lazy

UNFOLD = {
    "SITE_TITLE": "Vikela Back Office",
    "SITE_HEADER": "Vikela",
    "SITE_SUBHEADER": "Compliance & KYC",
    "SITE_SYMBOL": "shield",
    "SHOW_HISTORY": True,
    "SHOW_VIEW_ON_SITE": False,
    "DASHBOARD_CALLBACK": "backoffice.dashboard.dashboard_callback",
    "STYLES": [lambda request: static("backoffice/admin.css")],
    "COLORS": {
        "primary": {
            "50": "236 253 245",
            "100": "209 250 229",
            "200": "167 243 208",
            "300": "110 231 183",
            "400": "52 211 153",
            "500": "16 185 129",
            "600": "5 150 105",
            "700": "4 120 87",
            "800": "6 95 70",
            "900": "6 78 59",
            "950": "2 44 34",
        },
    },
    "SIDEBAR": {
        "show_search": True,
        "show_all_applications": True,
        "navigation": [
            {
                "title": "Overview",
                "items": [
                    {"title": "Dashboard", "icon": "dashboard", "link": reverse_lazy("admin:index")},
                ],
            },
            {
                "title": "KYC",
                "items": [
                    {
                        "title": "Users",
                        "icon": "group",
                        "link": reverse_lazy("admin:kyc_platformuser_changelist"),
                        "permission": lambda request: request.user.has_perm("kyc.view_platformuser"),
                    },
                    {
                        "title": "Ledger",
                        "icon": "receipt_long",
                        "link": reverse_lazy("admin:kyc_transaction_changelist"),
                        "permission": lambda request: request.user.has_perm("kyc.view_transaction"),
                    },
                ],
            },
            {
                "title": "Compliance",
                "items": [
                    {
                        "title": "SARs",
                        "icon": "report",
                        "link": reverse_lazy("admin:compliance_sar_changelist"),
                        "permission": "compliance.admin.sar.can_view_sars",
                    },
                    {
                        "title": "Alert queue",
                        "icon": "notification_important",
                        "link": reverse_lazy("admin:compliance_alert_changelist"),
                        "permission": lambda request: request.user.has_perm("compliance.view_alert"),
                    },
                    {
                        "title": "AML rules",
                        "icon": "rule",
                        "link": reverse_lazy("admin:compliance_amlrule_changelist"),
                        "permission": lambda request: request.user.has_perm("compliance.view_amlrule"),
                    },
                ],
            },
            {
                "title": "Administration",
                "items": [
                    {
                        "title": "Staff",
                        "icon": "badge",
                        "link": reverse_lazy("admin:backoffice_staff_changelist"),
                        "permission": "backoffice.dashboard.can_manage_staff",
                    },
                    {
                        "title": "Audit log",
                        "icon": "history",
                        "link": reverse_lazy("admin:backoffice_auditlog_changelist"),
                        "permission": "backoffice.dashboard.can_manage_staff",
                    },
                ],
            },
        ],
    },
}
