"""Demo vendors."""

from django.contrib.auth.hashers import make_password

from vendors.models import Vendor

DEMO_VENDORS = [
    ("Mbabane Fresh Market", "Thandi Motsa", "market@vendors.demo", "+26876100001", "grocery"),
    ("Manzini Hardware", "Musa Dube", "hardware@vendors.demo", "+26876100002", "retail"),
    ("Lobamba Fuel Stop", "Ayanda Hlophe", "fuel@vendors.demo", "+26876100003", "fuel"),
    ("Ezulwini Crafts", "Zodwa Ndlovu", "crafts@vendors.demo", "+26876100004", "crafts"),
]


def seed(stdout) -> None:
    for name, contact, email, phone, sector in DEMO_VENDORS:
        Vendor.objects.get_or_create(
            email=email,
            defaults={
                "business_name": name,
                "contact_name": contact,
                "phone_number": phone,
                "business_sector": sector,
                "password": make_password("Vendor-Demo-2026!"),
                "is_phone_verified": True,
            },
        )
    stdout.write(f"Vendors: {len(DEMO_VENDORS)} (password Vendor-Demo-2026!)")
