"""The admin site's look (django-unfold). The sidebar is built per request from what each app contributes."""

from django.templatetags.static import static
from django.urls import reverse_lazy

FAVICON = "backoffice/favicon.svg"

UNFOLD = {
    "SITE_TITLE": "Vikela Back Office",
    "SITE_HEADER": "Vikela",
    "SITE_SUBHEADER": "Compliance & KYC",
    "SITE_SYMBOL": "shield",
    # a back office has no public site to "view": no "View site" or "Return to site" link (the root of the
    # site leads to the admin site, backoffice.urls)
    "SITE_URL": None,
    "SITE_FAVICONS": [
        {"rel": "icon", "sizes": "any", "type": "image/svg+xml", "href": lambda request: static(FAVICON)},
    ],
    "SHOW_HISTORY": True,
    "SHOW_VIEW_ON_SITE": False,
    "DASHBOARD_CALLBACK": "backoffice.admin.dashboard.dashboard_callback",
    "STYLES": [lambda request: static("backoffice/admin.css")],
    "SCRIPTS": [lambda request: static("backoffice/a11y.js"), lambda request: static("backoffice/confirm.js")],
    # Emerald, one step darker than Tailwind's from 500 on: white on primary-600 (buttons) is 5.5:1 and
    # primary-600 text on white the same, both above WCAG 2.1 AA's 4.5:1
    # (backoffice/tests/admin/test_theme_contrast.py).
    "COLORS": {
        "primary": {
            "50": "236 253 245",
            "100": "209 250 229",
            "200": "167 243 208",
            "300": "110 231 183",
            "400": "52 211 153",
            "500": "5 150 105",
            "600": "4 120 87",
            "700": "6 95 70",
            "800": "6 78 59",
            "900": "2 44 34",
            "950": "1 30 23",
        },
    },
    # sign-in throttled per address and per account, like the API's logins
    "LOGIN": {"form": "backoffice.auth.admin_login.ThrottledLoginForm"},
    # the signed-in staff member's own two-factor page (backoffice.admin.two_factor), in the account menu
    "ACCOUNT": {"navigation": [{"title": "Two-factor sign-in", "link": reverse_lazy("admin:staff_two_factor")}]},
    "SIDEBAR": {
        "show_search": True,
        "show_all_applications": True,
        "navigation": "backoffice.admin.navigation.sidebar",
    },
}
