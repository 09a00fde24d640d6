"""The demo data set: each app contributes a seeder; the foundation's own is one staff account per role.

Apps register ``seed(stdout)`` functions from ``AppConfig.ready()`` with
``register_seeder``; ``manage.py seed_demo`` runs them in the apps' dependency
order (``settings.DOMAIN_APPS``: users before the SARs about them), each in
its own transaction. Every seeder is deterministic and idempotent.
"""

import hashlib
from binascii import unhexlify
from collections.abc import Callable

from django.conf import settings
from django_otp.oath import totp

from backoffice.auth import mfa
from backoffice.choices import StaffRole
from backoffice.models import Staff, WebhookEndpoint
from backoffice.services import staff_upsert
from backoffice.services.mfa import staff_mfa_confirm, staff_mfa_start
from backoffice.services.webhooks import EVENT_TYPES, webhook_endpoint_create

DEMO_STAFF = [
    ("support@vikela.demo", StaffRole.SUPPORT, "Sipho", "Support"),
    ("compliance@vikela.demo", StaffRole.COMPLIANCE_OFFICER, "Nomsa", "Dlamini"),
    ("compliance2@vikela.demo", StaffRole.COMPLIANCE_OFFICER, "Themba", "Nkambule"),
    ("mlro@vikela.demo", StaffRole.MLRO, "Lindiwe", "Shongwe"),
    ("mlro2@vikela.demo", StaffRole.MLRO, "Bongani", "Mamba"),
    ("finance@vikela.demo", StaffRole.FINANCE, "Zanele", "Simelane"),
    ("finance2@vikela.demo", StaffRole.FINANCE, "Mandla", "Hlophe"),
    ("admin@vikela.demo", StaffRole.ADMIN, "Ada", "Admin"),
    # a second of each role that decides what another asked for (dual control: docs/dual-control.md)
    ("admin2@vikela.demo", StaffRole.ADMIN, "Busi", "Admin"),
    # signs in with a code from an authenticator app as well (seed_two_factor)
    ("twofactor@vikela.demo", StaffRole.COMPLIANCE_OFFICER, "Sibusiso", "Dube"),
]
DEMO_PASSWORD = "Vikela-Demo-2026!"
# The demo's two-factor secret is fixed and printed, so anyone can add it to an app and sign in; a demo value,
# published on purpose: a real staff member's secret is random and shown only to them.
DEMO_MFA_KEY = hashlib.sha1(b"vikela-demo-two-factor").hexdigest()

_SEEDERS: dict[str, Callable] = {}


def demo_staff(key: str) -> Staff | None:
    """The demo staff account ``{key}@vikela.demo`` (``compliance``, ``mlro2``...); None before the foundation seeds."""
    return Staff.objects.filter(email=f"{key}@vikela.demo").first()


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
    seed_two_factor(stdout)
    # before the other apps' demo data, so what they do (held payments decided, verifications) is sent to it
    seed_webhooks(stdout)


def seed_two_factor(stdout) -> None:
    """twofactor@vikela.demo enrolled in two-factor sign-in with the published secret (enrolled again if removed)."""
    staff = demo_staff("twofactor")
    device = mfa.totp_device(staff)
    if device is None:
        staff_mfa_start(staff=staff, key=DEMO_MFA_KEY)
        # confirmed with the previous period's code, so the code an app shows now is still unspent
        staff_mfa_confirm(staff=staff, code=f"{totp(unhexlify(DEMO_MFA_KEY), drift=-1):06d}")
        device = mfa.totp_device(staff)
    secret = mfa.base32_secret(device)
    stdout.write(f"Two-factor sign-in (docs/staff-mfa.md): {staff.email} gives a code after the password")
    stdout.write(f"  its authenticator secret: {secret}")
    stdout.write(f"  as a URI for an app: {device.config_url}")
    stdout.write(f"  a code now: .venv/bin/python scripts/totp-code {secret}")


DEMO_WEBHOOK_URL = "https://platform.example/webhooks/vikela"


def seed_webhooks(stdout) -> None:
    """One endpoint of the payment platform's, subscribed to everything: until someone points it at a receiver
    that answers (the admin site, Webhooks), its deliveries show as pending, then failed."""
    if WebhookEndpoint.objects.filter(url=DEMO_WEBHOOK_URL, deleted_at__isnull=True).exists():
        return
    admin = Staff.objects.filter(role=StaffRole.ADMIN).order_by("email").first()
    endpoint, secret = webhook_endpoint_create(
        actor=admin, url=DEMO_WEBHOOK_URL, event_types=sorted(EVENT_TYPES), description="Payment platform (demo)"
    )
    stdout.write(f"Webhook endpoint {endpoint.url} (its signing secret, shown once: {secret})")
