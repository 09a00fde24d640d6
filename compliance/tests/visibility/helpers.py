"""What support and finance must never read (tipping-off), as patterns, and how to find it in a page or answer."""

import hashlib
import re

from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.peps.models.pep import PEPMatch
from compliance.sanctions.models import SanctionsMatch
from compliance.sars.models.sar import SAR
from kyc.choices import VerificationStatus
from kyc.models import PlatformUser, Transaction, TransactionEvent
from kyc.tests.factories import PlatformUserFactory

# a rule id of the catalogue's shape (AML-THR-001), whatever the rules in the database
RULE_ID_SHAPE = r"\bAML-[A-Z]+-\d{3}\b"
# the words that say a report exists: SAR as a word (never inside another word), the phrase, the FIU's format
SAR_WORDS = r"\bSARs?\b|suspicious activity report|\bgoAML\b"
# what says why someone is on a watch list: a match's own words, and the risk reasons that name them
MATCH_WORDS = r"\bPEP match|potential(ly)? (PEP|politically exposed)|politically exposed person|sanctions match"


def forbidden_patterns() -> dict[str, re.Pattern]:
    """Each kind of AML reasoning support and finance must not see, as a pattern over page text or JSON.

    Read from the database at the time of the walk: every rule id of the catalogue, every note an officer wrote
    on a held payment, a PEP match or a sanctions match (notes shorter than 12 characters are too common words
    to name a leak).
    """
    rule_ids = sorted(AMLRule.objects.values_list("rule_id", flat=True))
    notes = {
        *Transaction.objects.exclude(review_note="").values_list("review_note", flat=True),
        *TransactionEvent.objects.exclude(note="").values_list("note", flat=True),
        *PEPMatch.objects.exclude(review_note="").values_list("review_note", flat=True),
        *SanctionsMatch.objects.exclude(note="").values_list("note", flat=True),
        *(d[:60] for d in SAR.objects.values_list("activity_description", flat=True)),
    }
    notes = sorted(n.strip() for n in notes if len(n.strip()) >= 12)
    patterns = {
        "rule id": RULE_ID_SHAPE + (("|" + "|".join(rf"\b{re.escape(r)}\b" for r in rule_ids)) if rule_ids else ""),
        "SAR word": SAR_WORDS,
        "match reasoning": MATCH_WORDS,
    }
    if notes:
        patterns["review note"] = "|".join(re.escape(n) for n in notes)
    return {name: re.compile(p, re.IGNORECASE if name != "SAR word" else 0) for name, p in patterns.items()}


def leaks(text: str, patterns: dict[str, re.Pattern]) -> list[str]:
    """``kind: the text found`` for each pattern found in ``text``."""
    found = []
    for name, pattern in patterns.items():
        if match := pattern.search(text):
            found.append(f"{name}: {match.group(0)!r}")
    return found


def verified_customer_with_an_alert(last_name: str) -> tuple[PlatformUser, AMLRule]:
    """A verified customer with one open HIGH alert of AML-THR-001 (12 risk points): the reasoning to hide."""
    user = PlatformUserFactory(first_name="Thabo", last_name=last_name, verification_status=VerificationStatus.VERIFIED)
    rule = AMLRule.objects.create(
        rule_id="AML-THR-001",
        name="Large single transaction",
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 5000},
        is_active=True,
    )
    Alert.objects.create(
        rule=rule, rule_version=1, user=user, severity="HIGH", dedup_key=hashlib.sha256(last_name.encode()).hexdigest()
    )
    return user, rule
