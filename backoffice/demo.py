"""Demo staff: one account per role, with passwords meant only for a demo machine."""

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


def seed(stdout) -> None:
    stdout.write(f"Staff (password for all: {DEMO_PASSWORD})")
    for email, role, first, last in DEMO_STAFF:
        existing = Staff.objects.filter(email=email).first()
        if existing is None or not existing.check_password(DEMO_PASSWORD) or existing.role != role:
            staff_upsert(email=email, password=DEMO_PASSWORD, role=role, first_name=first, last_name=last)
        stdout.write(f"  {role:<20} {email}")
