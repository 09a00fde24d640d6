"""Demo KYC users: every verification state and risk rating, archived ones, NFC cards, ID documents
and about five months of ledger written through ``kyc.services.transaction_record``.

Deterministic (``random.Random(SEED)``, fixed dates) and idempotent: a user that already exists
(found by phone number) is left as it is, so running the seed twice changes nothing.
"""

import datetime as dt
import heapq
import random
from decimal import Decimal

from django.contrib.auth.hashers import make_password
from django.core.files.base import ContentFile

from backoffice.models import Staff
from kyc.choices import (
    CREDIT_TYPES,
    Channel,
    DocumentType,
    RiskRating,
    Sex,
    TransactionType,
    VerificationStatus,
    VerificationType,
)
from kyc.models import PlatformUser, VerificationRecord
from kyc.pngs import solid_png
from kyc.services import transaction_record, user_archive, user_document_store, user_name_index
from vendors.models import Vendor

SEED = 20261121
PASSWORD = "User-Demo-2026!"
BASE = dt.datetime(2026, 6, 1, 8, 0, tzinfo=dt.UTC)
LEDGER_DAYS = 150

# The first three are the platform's long-standing demo users; other areas' demo data refers to them.
DEMO_USERS = [
    ("+26876200001", "Nokuthula", "Dlamini", "nokuthula@users.demo", "KYC00001"),
    ("+26876200002", "Sibusiso", "Mkhonta", "sibusiso@users.demo", "KYC00002"),
    ("+26876200003", "Lungile", "Vilakati", "lungile@users.demo", "KYC00003"),
]
FIRST_NAMES = [
    ("Thabo", Sex.MALE),
    ("Nomvula", Sex.FEMALE),
    ("Sandile", Sex.MALE),
    ("Zanele", Sex.FEMALE),
    ("Mandla", Sex.MALE),
    ("Phindile", Sex.FEMALE),
    ("Bheki", Sex.MALE),
    ("Siphesihle", Sex.FEMALE),
    ("Mfanzile", Sex.MALE),
    ("Nonhlanhla", Sex.FEMALE),
    ("Vusi", Sex.MALE),
    ("Thandeka", Sex.FEMALE),
]
LAST_NAMES = ["Dlamini", "Simelane", "Nxumalo", "Magagula", "Hlophe", "Kunene", "Mamba", "Shongwe", "Zwane", "Motsa"]
REGIONS = ["Hhohho", "Manzini", "Lubombo", "Shiselweni"]
CITIES = {"Hhohho": "Mbabane", "Manzini": "Manzini", "Lubombo": "Siteki", "Shiselweni": "Nhlangano"}
STREETS = ["Gwamile Street", "Mhlakuvane Street", "Ngwane Street", "Sozisa Road", "Mahleka Street"]
OCCUPATIONS = ["Teacher", "Trader", "Nurse", "Student", "Farmer", "Driver", "Civil servant", "Unemployed"]
STATES = [VerificationStatus.VERIFIED, VerificationStatus.PENDING, VerificationStatus.REJECTED]
RATINGS = [(RiskRating.LOW, 12), (RiskRating.MEDIUM, 48), (RiskRating.HIGH, 81)]
GENERATED = 24


def _profiles(rng: random.Random) -> list[dict]:
    profiles = []
    for i, (phone, first, last, email, referral) in enumerate(DEMO_USERS):
        profiles.append(
            {
                "phone": phone,
                "first": first,
                "last": last,
                "email": email,
                "referral": referral,
                "sex": Sex.FEMALE if i != 1 else Sex.MALE,
                "index": i,
            }
        )
    for n in range(GENERATED):
        first, sex = FIRST_NAMES[n % len(FIRST_NAMES)]
        last = LAST_NAMES[(n * 7) % len(LAST_NAMES)]
        profiles.append(
            {
                "phone": f"+268762{10001 + n:05d}",
                "first": first,
                "last": last,
                "email": f"{first.lower()}.{last.lower()}{n}@users.demo",
                "referral": f"KYC{10001 + n:05d}",
                "sex": sex,
                "index": len(DEMO_USERS) + n,
            }
        )
    for p in profiles:
        i = p["index"]
        p["status"] = STATES[i % 3]
        p["rating"], base_score = RATINGS[(i // 3) % 3]
        p["score"] = base_score + rng.randint(0, 9)
        p["archived"] = i % 9 == 8
        p["card"] = f"NFC-{400000 + i:06d}" if i % 3 != 1 else None
        p["region"] = REGIONS[i % len(REGIONS)]
        p["occupation"] = OCCUPATIONS[rng.randrange(len(OCCUPATIONS))]
        born = dt.date(1960, 1, 1) + dt.timedelta(days=rng.randrange(365 * 42))
        p["dob"] = born
        p["id_number"] = f"{born:%y%m%d}{5000 if p['sex'] == Sex.MALE else 0:04d}{i:02d}{rng.randint(0, 9)}"[:13]
        p["joined"] = BASE + dt.timedelta(days=i, hours=rng.randint(0, 10))
        # identity papers and address (customer due diligence; goAML reports carry them)
        p["id_issued"] = max(born + dt.timedelta(days=365 * 18), dt.date(2010, 1, 1)) + dt.timedelta(days=i * 37)
        p["address"] = f"{10 + i * 3} {STREETS[i % len(STREETS)]}"
        p["city"] = CITIES[p["region"]]
        p["passport"] = f"SZ{720000 + i * 17:07d}" if i % 4 == 0 else ""
    return profiles


def _store_documents(user: PlatformUser, profile: dict) -> None:
    colours = {
        DocumentType.ID_FRONT: (30, 60, 120),
        DocumentType.ID_BACK: (90, 110, 140),
        DocumentType.SELFIE: (200, 160, 120),
    }
    for doc_type, rgb in colours.items():
        user_document_store(
            user=user,
            type=doc_type,
            content=ContentFile(solid_png(64, 40, rgb)),
            filename=f"{doc_type.lower()}.png",
            content_type="image/png",
            uploaded_at=profile["joined"] + dt.timedelta(hours=1),
        )


def _record_verification(user: PlatformUser, profile: dict) -> None:
    started = profile["joined"] + dt.timedelta(hours=2)
    done = profile["status"] != VerificationStatus.PENDING
    record = VerificationRecord.objects.create(
        user=user,
        type=VerificationType.IDENTITY,
        status=profile["status"],
        completed_at=started + dt.timedelta(minutes=6) if done else None,
        notes="" if profile["status"] != VerificationStatus.REJECTED else "Face did not match the ID photo",
    )
    VerificationRecord.objects.filter(pk=record.pk).update(created_at=started)


class _Ledgers:
    """Every demo wallet's ledger as one simulation in time order.

    Each row is written when its moment comes up across all wallets, so a transfer lands in the
    receiver's ledger between the receiver's own earlier and later rows, and every wallet's balance is
    the ``balance_after`` of its last row in time order. No two rows of one wallet share a moment
    (a clash moves the later one on by a second), so that order is never ambiguous.
    """

    def __init__(self, rng: random.Random, vendors, finance):
        self.rng = rng
        self.vendors = vendors
        self.finance = finance
        self.balances: dict = {}
        self.last_moment: dict = {}
        self.counts: dict = {}

    def _moment(self, user, moment: dt.datetime) -> dt.datetime:
        last = self.last_moment.get(user.pk)
        if last is not None and moment <= last:
            moment = last + dt.timedelta(seconds=1)
        self.last_moment[user.pk] = moment
        return moment

    def _write(self, user, profile: dict, moment: dt.datetime, type: str, amount: Decimal, **fields) -> None:
        self.counts[user.pk] = self.counts.get(user.pk, 0) + 1
        transaction_record(
            user=user,
            type=type,
            amount=amount,
            reference=fields.pop("reference", None) or f"DEMO-{profile['phone'][-5:]}-{self.counts[user.pk]:04d}",
            created_at=self._moment(user, moment),
            region=profile["region"],
            **fields,
        )
        delta = amount if type in CREDIT_TYPES else -amount
        self.balances[user.pk] = self.balances.get(user.pk, Decimal("0.00")) + delta

    def run(self, wallets: list[tuple[PlatformUser, dict]]) -> None:
        """Wallet life from each user's joining day to the end of the demo period, all wallets interleaved."""
        end = BASE + dt.timedelta(days=LEDGER_DAYS)
        queue = [(profile["joined"] + dt.timedelta(days=1), index) for index, (_user, profile) in enumerate(wallets)]
        heapq.heapify(queue)
        while queue:
            moment, index = heapq.heappop(queue)
            moment += dt.timedelta(hours=self.rng.randint(20, 110), minutes=self.rng.randint(0, 59))
            if moment >= end:
                continue
            user, profile = wallets[index]
            peers = [other for other, _p in wallets if other.pk != user.pk]
            self._event(user, profile, moment, peers, wallets)
            heapq.heappush(queue, (moment, index))

    def _event(self, user, profile: dict, moment: dt.datetime, peers, wallets) -> None:
        """One everyday movement of ``user``'s wallet; debits never exceed the balance, so every row applies."""
        rng = self.rng
        balance = self.balances.get(user.pk, Decimal("0.00"))
        roll = rng.random()
        if balance < Decimal("50") or roll < 0.3:
            amount = Decimal(rng.choice([50, 100, 150, 200, 300, 500, 1000])) + Decimal(rng.randint(0, 99)) / 100
            channel = rng.choice([Channel.MOBILE_MONEY, Channel.MOBILE_MONEY, Channel.BANK, Channel.CARD])
            self._write(user, profile, moment, TransactionType.TOP_UP, amount, channel=channel)
            return
        amount = (balance * Decimal(rng.randint(5, 40)) / 100).quantize(Decimal("0.01"))
        if amount < Decimal("1.00"):
            return
        if roll < 0.55 and self.vendors:
            vendor = self.vendors[rng.randrange(len(self.vendors))]
            self._write(user, profile, moment, TransactionType.VENDOR_PAYMENT, amount, counterparty_vendor=vendor)
        elif roll < 0.7 and profile["card"]:
            self._write(user, profile, moment, TransactionType.CARD_PAYMENT, amount, channel=Channel.CARD)
        elif roll < 0.85 and peers:
            peer = peers[rng.randrange(len(peers))]
            peer_profile = next(p for u, p in wallets if u.pk == peer.pk)
            self._write(user, profile, moment, TransactionType.TRANSFER_OUT, amount, counterparty_user=peer)
            reference = f"DEMO-{profile['phone'][-5:]}-{self.counts[user.pk]:04d}-IN"
            self._write(
                peer,
                peer_profile,
                moment,
                TransactionType.TRANSFER_IN,
                amount,
                counterparty_user=user,
                reference=reference,
            )
        elif roll < 0.97:
            country = "SZ" if rng.random() < 0.85 else rng.choice(["ZA", "MZ"])
            channel = rng.choice([Channel.MOBILE_MONEY, Channel.BANK])
            self._write(user, profile, moment, TransactionType.WITHDRAWAL, amount, country=country, channel=channel)
        else:
            self._write(
                user,
                profile,
                moment,
                TransactionType.ADMIN_CREDIT,
                Decimal("25.00"),
                actor=self.finance,
                reason="Loyalty promotion",
            )


def seed(stdout) -> None:
    rng = random.Random(SEED)
    profiles = _profiles(rng)
    password = None
    created: list[tuple[PlatformUser, dict]] = []
    for p in profiles:
        if PlatformUser.objects.filter(phone_number=p["phone"]).exists():
            continue
        password = password or make_password(PASSWORD)
        user = PlatformUser.objects.create(
            phone_number=p["phone"],
            first_name=p["first"],
            last_name=p["last"],
            email=p["email"],
            referral_code=p["referral"],
            password=password,
            is_phone_verified=True,
            names=p["first"],
            surname=p["last"].upper(),
            id_number=p["id_number"],
            date_of_birth=p["dob"],
            sex=p["sex"],
            nationality="Swazi",
            occupation=p["occupation"],
            region=p["region"],
            address_line=p["address"],
            city=p["city"],
            id_issue_date=p["id_issued"],
            passport_number=p["passport"],
            passport_country="SZ" if p["passport"] else "",
            passport_issue_date=dt.date(2022, 3, 1) + dt.timedelta(days=p["index"]) if p["passport"] else None,
            passport_expiry_date=dt.date(2032, 2, 28) + dt.timedelta(days=p["index"]) if p["passport"] else None,
            verification_status=p["status"],
            is_verified=p["status"] == VerificationStatus.VERIFIED,
            risk_rating=p["rating"],
            current_risk_score=p["score"],
            nfc_card_number=p["card"],
            rewards_points=rng.randint(0, 500),
        )
        PlatformUser.objects.filter(pk=user.pk).update(created_at=p["joined"])
        user_name_index(user=user)
        _store_documents(user, p)
        _record_verification(user, p)
        created.append((user, p))

    if created:
        vendors = list(Vendor.objects.order_by("email"))
        finance = Staff.objects.filter(role="finance").order_by("email").first()
        _Ledgers(rng, vendors, finance).run(created)
        # archived last, so the ledger above could still be written for them
        for user, p in created:
            if p["archived"]:
                user_archive(user=user, actor=None)
                PlatformUser.objects.filter(pk=user.pk).update(archived_at=BASE + dt.timedelta(days=140))
    # demo users made before the name index existed get their keys (PEP screening searches them)
    for user in PlatformUser.objects.filter(phone_number__in=[p["phone"] for p in profiles], name_keys__isnull=True):
        user_name_index(user=user)
    total = PlatformUser.objects.filter(phone_number__in=[p["phone"] for p in profiles]).count()
    candidates = seed_identity_candidates()
    stdout.write(
        f"Users: {total} ({len(created)} new; password {PASSWORD}), "
        f"{len(IDENTITY_CANDIDATES)} waiting for an identity check ({candidates} new)"
    )


# Users who signed up and have not yet proved who they are: verification's demo data runs their identity checks
# (a card in their name, a selfie). Only names here: the check fills the rest of the profile.
IDENTITY_CANDIDATES = [
    ("+26876300001", "Mandla", "Hlatshwayo"),
    ("+26876300002", "Musa", "Ginindza"),
    ("+26876300003", "Sabelo", "Tfwala"),
    ("+26876300004", "Mandla", "Hlatshwayo"),
    ("+26876300005", "Lwazi", "Fakudze"),
]


def seed_identity_candidates() -> int:
    created = 0
    for phone, first, last in IDENTITY_CANDIDATES:
        if PlatformUser.objects.filter(phone_number=phone).exists():
            continue
        user = PlatformUser.objects.create(
            phone_number=phone,
            first_name=first,
            last_name=last,
            email=f"{first.lower()}.{phone[-4:]}@users.demo",
            referral_code=f"VER{phone[-5:]}",
            password=make_password(PASSWORD),
            is_phone_verified=True,
        )
        user_name_index(user=user)
        created += 1
    return created
