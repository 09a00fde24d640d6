"""Demo users. The KYC issue extends this with every state, documents and months of ledger."""

from django.contrib.auth.hashers import make_password

from kyc.models import PlatformUser

DEMO_USERS = [
    ("+26876200001", "Nokuthula", "Dlamini", "nokuthula@users.demo", "KYC00001"),
    ("+26876200002", "Sibusiso", "Mkhonta", "sibusiso@users.demo", "KYC00002"),
    ("+26876200003", "Lungile", "Vilakati", "lungile@users.demo", "KYC00003"),
]


def seed(stdout) -> None:
    for phone, first, last, email, referral in DEMO_USERS:
        PlatformUser.objects.get_or_create(
            phone_number=phone,
            defaults={
                "first_name": first,
                "last_name": last,
                "email": email,
                "referral_code": referral,
                "password": make_password("User-Demo-2026!"),
                "is_phone_verified": True,
            },
        )
    stdout.write(f"Users: {len(DEMO_USERS)} (password User-Demo-2026!)")
