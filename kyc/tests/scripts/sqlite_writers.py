"""Run by test_sqlite_concurrency: many threads writing to one SQLite file at once."""

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import django

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

call_command("migrate", verbosity=0)

from kyc.models import PlatformUser  # noqa: E402
from kyc.services import transaction_record  # noqa: E402

user = PlatformUser.objects.create(phone_number="+26876000001", first_name="A", last_name="B", referral_code="R1")


def credit(n):
    try:
        transaction_record(user=user, type="TOP_UP", amount=Decimal("1.25"), reference=f"T-{n}")
        return None
    except Exception as exc:  # reported, not raised: the parent counts failures
        return repr(exc)
    finally:
        connections.close_all()


with ThreadPoolExecutor(max_workers=8) as pool:
    errors = [e for e in pool.map(credit, range(80)) if e]

user.refresh_from_db()
print(f"errors={len(errors)} balance={user.balance} rows={user.transactions.count()}")
for e in errors[:3]:
    print(e)
