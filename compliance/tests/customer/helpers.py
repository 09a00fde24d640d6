"""The customer view's tests' data: a money network written by the ledger's own service."""

from decimal import Decimal

from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import make_entry
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory


def network(make_alert):  # noqa: F811
    """Nomvula pays Sipho twice and a shop once; Sipho pays Ahmad (on a sanctions list) and Thandi (a PEP with an
    open alert): every row written by the ledger's own service."""
    make_entry("Ahmad Khalil Haddad", dates_of_birth=["1970"])
    centre = PlatformUserFactory(first_name="Nomvula", last_name="Dube")
    sipho = PlatformUserFactory(first_name="Sipho", last_name="Nkosi")
    ahmad = PlatformUserFactory(first_name="Ahmad", last_name="Haddad")
    thandi = PlatformUserFactory(first_name="Thandi", last_name="Mamba", is_potential_pep=True)
    shop = VendorFactory(business_name="Mbabane Hardware")
    make_alert(user=thandi, severity="HIGH")
    for user in (centre, sipho):
        transaction_record(user=user, type="TOP_UP", amount=Decimal("5000"))
    for amount in ("700", "300"):
        transaction_record(user=centre, type="TRANSFER_OUT", amount=Decimal(amount), counterparty_user=sipho)
    transaction_record(user=centre, type="VENDOR_PAYMENT", amount=Decimal("250"), counterparty_vendor=shop)
    transaction_record(user=sipho, type="TRANSFER_OUT", amount=Decimal("900"), counterparty_user=ahmad)
    transaction_record(user=sipho, type="TRANSFER_OUT", amount=Decimal("120"), counterparty_user=thandi)
    screen_user(user_id=ahmad.pk)  # after his money came: a payment to a listed person would have been stopped
    return centre, sipho, ahmad, thandi, shop
