"""The customer view's money: the counterparties of a wallet and the flows one and two hops around it."""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q, Sum

from kyc.choices import CREDIT_TYPES, TransactionStatus
from kyc.models import PlatformUser, Transaction
from vendors.models import Vendor


@dataclass
class Counterparty:
    """Someone a wallet exchanged money with: a user or a vendor, and what went each way."""

    key: str
    name: str
    kind: str  # "user" or "vendor"
    pk: object
    sent: Decimal  # from the wallet to the counterparty
    received: Decimal  # from the counterparty to the wallet
    count: int
    # what marks the party in an investigation ("sanctions match", "PEP", "2 open alerts"): set by the customer
    # view from kyc's party_flags hook, empty for a vendor or an unflagged user
    flags: tuple[str, ...] = ()

    @property
    def total(self) -> Decimal:
        return self.sent + self.received


def _flows_by_party(queryset) -> dict[tuple, dict]:
    """(owner id, counterparty user id, counterparty vendor id) -> sent, received, count, from one GROUP BY."""
    rows = (
        queryset.filter(status=TransactionStatus.COMPLETED)
        .filter(Q(counterparty_user__isnull=False) | Q(counterparty_vendor__isnull=False))
        .values("user_id", "counterparty_user_id", "counterparty_vendor_id")
        .annotate(
            received=Sum("amount", filter=Q(type__in=CREDIT_TYPES)),
            sent=Sum("amount", filter=~Q(type__in=CREDIT_TYPES)),
            n=Count("pk"),
        )
        .order_by()
    )
    return {
        (r["user_id"], r["counterparty_user_id"], r["counterparty_vendor_id"]): {
            "sent": r["sent"] or Decimal("0"),
            "received": r["received"] or Decimal("0"),
            "count": r["n"],
        }
        for r in rows
    }


def _named(flows: dict[tuple, dict]) -> list[tuple[object, Counterparty]]:
    """The flows with their counterparties' names: one query for the users, one for the vendors."""
    user_ids = {cp for (_, cp, _) in flows if cp}
    vendor_ids = {v for (_, _, v) in flows if v}
    users = {u.pk: u.full_name for u in PlatformUser.objects.filter(pk__in=user_ids).only("first_name", "last_name")}
    vendors = dict(Vendor.objects.filter(pk__in=vendor_ids).values_list("pk", "business_name"))
    named = []
    for (owner, cp_user, cp_vendor), f in flows.items():
        kind, pk = ("user", cp_user) if cp_user else ("vendor", cp_vendor)
        name = users.get(cp_user, "unknown user") if cp_user else vendors.get(cp_vendor, "unknown vendor")
        party = Counterparty(f"{kind}:{pk}", name, kind, pk, f["sent"], f["received"], f["count"])
        named.append((owner, party))
    return named


def user_counterparties(*, user: PlatformUser, limit: int = 8) -> list[Counterparty]:
    """Whom the wallet exchanged the most money with (completed rows), both directions: three queries."""
    parties = [party for _, party in _named(_flows_by_party(Transaction.objects.filter(user=user)))]
    return sorted(parties, key=lambda p: (-p.total, p.name))[:limit]


@dataclass(frozen=True)
class MoneyFlows:
    """The wallet's counterparties (one hop) and, for the users among them, their own (two hops)."""

    centre: PlatformUser
    first_hop: list[Counterparty]
    second_hop: dict[str, list[Counterparty]]  # first-hop key -> its counterparties


def parties_of(flows: "MoneyFlows") -> list[Counterparty]:
    """Every counterparty drawn in ``flows``, first hop then second."""
    return flows.first_hop + [p for parties in flows.second_hop.values() for p in parties]


def user_money_flows(*, user: PlatformUser, first: int = 6, second: int = 3) -> MoneyFlows:
    """One and two hops of money around a wallet, in a fixed number of queries (five) whatever the ledger."""
    first_hop = user_counterparties(user=user, limit=first)
    hop_users = [p.pk for p in first_hop if p.kind == "user"]
    onward = (
        _named(_flows_by_party(Transaction.objects.filter(user_id__in=hop_users).exclude(counterparty_user_id=user.pk)))
        if hop_users
        else []
    )
    second_hop: dict[str, list[Counterparty]] = {}
    for owner, party in onward:
        second_hop.setdefault(f"user:{owner}", []).append(party)
    for key, parties in second_hop.items():
        second_hop[key] = sorted(parties, key=lambda p: (-p.total, p.name))[:second]
    return MoneyFlows(centre=user, first_hop=first_hop, second_hop=second_hop)
