"""Sanctions in the decision before the money moves (``compliance.aml.hooks.decision_screeners``).

Inside the ledger's transaction, under the wallet's lock, for the intake and the dry run alike:

* the customer's sanctions state, read from rows (no screening): frozen is BLOCK, a POTENTIAL match HOLD;
  a transfer naming a frozen customer as counterparty is BLOCK too;
* the ``counterparty_name``, screened through this process's index of the active entries: a confirmed
  (name, entry) pair is BLOCK, a dismissed pair on the entry's unchanged content passes (for every customer),
  anything else HOLD and, outside the dry run, opens a COUNTERPARTY match (POTENTIAL, with its alert).

Each hit is ``{rule_id: SANCTIONS, severity: CRITICAL, action: HOLD|BLOCK, match_id, list, reference, score}``;
the strongest action of the rules' hits and these decides.
"""

from compliance.casework.choices import Severity
from compliance.sanctions.match_choices import MatchParty, MatchStatus
from compliance.sanctions.models.match import SanctionsMatch
from compliance.sanctions.selectors.screening import screen_name
from compliance.sanctions.services.screening import Found, name_key, record_matches
from kyc.choices import HitAction
from kyc.models import PlatformUser
from kyc.screening import ScreeningHit

RULE_ID = "SANCTIONS"
COUNTERPARTY_LIMIT = 5


def _hit(action: str, *, match_id, list_code: str, reference: str, score: float | None) -> ScreeningHit:
    return ScreeningHit(
        rule_id=RULE_ID,
        rule_version=None,
        severity=Severity.CRITICAL,
        action=action,
        details={
            "match_id": str(match_id) if match_id else None,
            "list": list_code,
            "reference": reference,
            "score": score,
        },
    )


def _match_hit(action: str, row: SanctionsMatch, entry=None) -> ScreeningHit:
    entry = entry if entry is not None else row.entry
    return _hit(
        action, match_id=row.pk, list_code=entry.sanctions_list.code, reference=entry.reference, score=row.score
    )


_OPEN = (MatchStatus.POTENTIAL, MatchStatus.CONFIRMED)


def _customer_hits(user_ids: dict) -> list[ScreeningHit]:
    """The state of the customer (and of a counterparty customer): frozen BLOCK, a POTENTIAL match HOLD."""
    hits: list[ScreeningHit] = []
    frozen = {pk for pk, is_frozen in user_ids.items() if is_frozen}
    matches = SanctionsMatch.objects.filter(party=MatchParty.USER, user_id__in=list(user_ids), status__in=_OPEN)
    # nearly every payment's customers have no open match: a plain look for one (no joins to compile, the query's
    # cost in Python is most of its cost), and the entries and lists are read only for a customer who has one
    rows = []
    if matches.exists():
        rows = list(
            matches.select_related("entry", "entry__sanctions_list")
            # what a hit says of its match, no more
            .only("id", "user_id", "status", "score", "entry__reference", "entry__sanctions_list__code")
            .order_by("-score")
        )
    for user_id in user_ids:
        own = [row for row in rows if row.user_id == user_id]
        if user_id in frozen:
            confirmed = [row for row in own if row.status == MatchStatus.CONFIRMED]
            if confirmed:
                hits.append(_match_hit(HitAction.BLOCK, confirmed[0]))
            else:
                hits.append(_hit(HitAction.BLOCK, match_id=None, list_code="", reference="", score=None))
        hits.extend(_match_hit(HitAction.HOLD, row) for row in own if row.status == MatchStatus.POTENTIAL)
    return hits


def _counterparty_hits(transaction, *, dry_run: bool) -> list[ScreeningHit]:
    name = (transaction.counterparty_name or "").strip()
    if not name:
        return []
    found = screen_name(name, limit=COUNTERPARTY_LIMIT)
    if not found:
        return []
    key = name_key(name)
    # the pairs' states only: the entries (with their list) came with the screening's answer, and joining them
    # again read every entry's whole row (aliases, details, search text) for each hit, most of a hit's cost
    known = {
        row.entry_id: row
        for row in SanctionsMatch.objects.filter(
            party=MatchParty.COUNTERPARTY, name_key=key, entry_id__in=[hit.entry.pk for hit in found]
        ).only("id", "entry_id", "status", "content_hash", "score")
    }
    hits: list[ScreeningHit] = []
    to_open: list[Found] = []
    for hit in found:
        row = known.get(hit.entry.pk)
        if row is not None and row.status == MatchStatus.CONFIRMED:
            hits.append(_match_hit(HitAction.BLOCK, row, hit.entry))
        elif row is not None and row.status == MatchStatus.DISMISSED and row.content_hash == hit.entry.content_hash:
            continue  # an officer said this name is not that entry, on this content: it passes for every customer
        elif row is not None and row.status == MatchStatus.POTENTIAL:
            hits.append(_match_hit(HitAction.HOLD, row, hit.entry))
        else:
            to_open.append(Found(MatchParty.COUNTERPARTY, transaction.user_id, hit, counterparty_name=name))
    if to_open and not dry_run:
        rows = record_matches(to_open)
        for item in to_open:
            row = rows.get((item.party, item.subject, item.hit.entry.pk))
            if row is not None:
                hits.append(_match_hit(HitAction.HOLD, row))
    elif to_open:
        for item in to_open:
            entry = item.hit.entry
            hits.append(
                _hit(
                    HitAction.HOLD,
                    match_id=None,
                    list_code=entry.sanctions_list.code,
                    reference=entry.reference,
                    score=item.hit.score,
                )
            )
    return hits


def sanctions_decision_hits(*, transaction, dry_run: bool = False, **_) -> list[ScreeningHit]:
    """``compliance.aml.hooks.decision_screeners``: the sanctions hits on one ledger row before the money moves."""
    people = {transaction.user_id: bool(getattr(transaction.user, "is_frozen", False))}
    if transaction.counterparty_user_id:
        # the intake has just read the counterparty's row (it checks that it exists): no second query for it
        counterparty = transaction._state.fields_cache.get("counterparty_user")
        if counterparty is None:
            frozen = PlatformUser.objects.filter(pk=transaction.counterparty_user_id).values_list(
                "is_frozen", flat=True
            )
            people[transaction.counterparty_user_id] = bool(frozen.first())
        else:
            people[transaction.counterparty_user_id] = bool(counterparty.is_frozen)
    hits = _customer_hits(people)
    # a counterparty customer's POTENTIAL match holds a transfer to them, their freeze blocks it
    hits.extend(_counterparty_hits(transaction, dry_run=dry_run))
    return hits
