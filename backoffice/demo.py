"""The demo data set: each app contributes a seeder; the foundation's own is one staff account per role.

Apps register ``seed(stdout)`` functions from ``AppConfig.ready()`` with
``register_seeder``; ``manage.py seed_demo`` runs them in the apps' dependency
order (``settings.DOMAIN_APPS``: users before the SARs about them), each in
its own transaction. Every seeder is deterministic and idempotent.
"""

from collections.abc import Callable

from django.conf import settings

from backoffice.choices import StaffRole
from backoffice.models import Staff
from backoffice.services import staff_upsert

DEMO_STAFF = [
    ("support@vikela.demo", StaffRole.SUPPORT, "Sipho", "Support"),
    ("compliance@vikela.demo", StaffRole.COMPLIANCE_OFFICER, "Nomsa", "Dlamini"),
    ("compliance2@vikela.demo", StaffRole.COMPLIANCE_OFFICER, "Themba", "Nkambule"),
    ("mlro@vikela.demo", StaffRole.MLRO, "Lindiwe", "Shongwe"),
    ("mlro2@vikela.demo", StaffRole.MLRO, "Bongani", "Mamba"),
    ("finance@vikela.demo", StaffRole.FINANCE, "Zanele", "Simelane"),
    ("admin@vikela.demo", StaffRole.ADMIN, "Ada", "Admin"),
]
DEMO_PASSWORD = "Vikela-Demo-2026!"

_SEEDERS: dict[str, Callable] = {}


def register_seeder(app_label: str, seed_fn: Callable) -> None:
    _SEEDERS[app_label] = seed_fn


def seeders() -> list[tuple[str, Callable]]:
    order = {label: n for n, label in enumerate(settings.DOMAIN_APPS)}
    return sorted(_SEEDERS.items(), key=lambda item: order.get(item[0], len(order)))


def seed(stdout) -> None:
    stdout.write(f"Staff (password for all: {DEMO_PASSWORD})")
    for email, role, first, last in DEMO_STAFF:
        existing = Staff.objects.filter(email=email).first()
        if existing is None or not existing.check_password(DEMO_PASSWORD) or existing.role != role:
            staff_upsert(email=email, password=DEMO_PASSWORD, role=role, first_name=first, last_name=last)
        stdout.write(f"  {role:<20} {email}")
