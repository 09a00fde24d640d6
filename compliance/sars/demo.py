"""Demo SARs in every state of the workflow, filed and moved through the real services by the demo staff, so
the history, the four-eyes stamps and the audit log look exactly as in production.

Deterministic and idempotent: every demo SAR has a fixed ``sarId`` (``SAR-1767225600000-DEMO01`` ...) and is
left alone once it exists. The draft cites its subject's structuring alert (escalated: "SAR in progress"), one
report was returned by its reviewer and rewritten (two narrative versions), and one carries comments and an
evidence file.
"""

import datetime as dt
import io
from decimal import Decimal

import pikepdf
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.demo import demo_staff
from compliance.aml.models.alerts import Alert
from compliance.casework.services.casework import attachment_add, comment_add
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.services.sar import sar_create, sar_return, sar_transition
from compliance.sars.services.sar_drafts import sar_update
from kyc.choices import Channel, TransactionType
from kyc.models import PlatformUser, Transaction
from kyc.services import transaction_record

STAMP = "1767225600000"  # 2026-01-01T00:00:00Z in milliseconds

# suffix, subject index, activity type, amount, days before today, final state, people, description
DEMO_SARS = [
    (
        "DEMO01",
        0,
        "structuring",
        "44100.00",
        12,
        SARStatus.DRAFT,
        ("compliance", None, None),
        "WHO: The customer, a wallet holder since June 2026.\n\n"
        "WHAT: Nine mobile-money top-ups of SZL 4,900 within 48 hours, each just under the SZL 5,000 reporting "
        "threshold.\n\nWHEN: [the dates and times, first to last]\n\nWHERE: Mobile money, Manzini region.\n\n"
        "WHY: [why splitting is suspicious here: no business reason given, a threshold avoided]\n\n"
        "HOW: [the pattern: amounts just under the reporting threshold, split across days, channels or agents]",
    ),
    (
        "DEMO02",
        1,
        "unusual_pattern",
        "18250.00",
        20,
        SARStatus.PENDING_REVIEW,
        ("compliance2", None, None),
        "Dormant wallet reactivated and used to receive transfers from eleven unrelated senders in one week.",
    ),
    (
        "DEMO03",
        2,
        "large_cash",
        "98000.00",
        9,
        SARStatus.PENDING_APPROVAL,
        ("compliance", "compliance2", None),
        "Cash-funded top-ups totalling SZL 98,000 inconsistent with the customer's stated occupation (student).",
    ),
    (
        "DEMO04",
        0,
        "money_laundering",
        "152400.50",
        30,
        SARStatus.SUBMITTED,
        ("compliance2", "compliance", "mlro"),
        "Rapid in-and-out movement: funds received by transfer are withdrawn within minutes, leaving no balance.",
    ),
    (
        "DEMO05",
        1,
        "fraud",
        "7300.00",
        45,
        SARStatus.ACKNOWLEDGED,
        ("compliance", "compliance2", "mlro2"),
        "Card payments at a vendor the customer reported as unauthorised, followed by a disputed chargeback.",
    ),
    (
        "DEMO06",
        2,
        "terrorist_financing",
        "3200.00",
        60,
        SARStatus.UNDER_INVESTIGATION,
        ("compliance2", "compliance", "mlro"),
        "Small recurring transfers to a counterparty named in a screening alert; pattern matches CFT typology.",
    ),
    (
        "DEMO07",
        0,
        "sanctions_violation",
        "25000.00",
        90,
        SARStatus.CLOSED,
        ("compliance", "compliance2", "mlro2"),
        "Payment to a vendor whose director matched a sanctions list entry; FIU investigated and closed the case.",
    ),
    (
        "DEMO08",
        1,
        "other",
        "1200.00",
        75,
        SARStatus.CLOSED,
        ("compliance2", "compliance", "mlro"),
        "Customer attempted to register several wallets with altered identity documents; FIU acknowledged and closed.",
    ),
]
# The road to each state; DEMO08 takes the diagram's shortcut ACKNOWLEDGED -> CLOSED.
ROAD = [
    SARStatus.PENDING_REVIEW,
    SARStatus.PENDING_APPROVAL,
    SARStatus.SUBMITTED,
    SARStatus.ACKNOWLEDGED,
    SARStatus.UNDER_INVESTIGATION,
    SARStatus.CLOSED,
]
SHORTCUT = {"DEMO08"}
# DEMO02 went to review, came back with the reviewer's reason, was rewritten and handed in again.
RETURNED = {
    "DEMO02": (
        "Name the eleven senders and give the dates of their transfers.",
        "Dormant wallet (no activity for five months) reactivated and used to receive transfers from eleven "
        "unrelated senders between the 3rd and the 9th of the month, SZL 18,250 in all, moved on the same days.",
    )
}
NOTES = {
    SARStatus.PENDING_REVIEW: "Draft complete, evidence attached.",
    SARStatus.PENDING_APPROVAL: "Reviewed: facts and amounts checked against the ledger.",
    SARStatus.SUBMITTED: "Approved by the MLRO and filed with the FIU through goAML.",
    SARStatus.ACKNOWLEDGED: "FIU acknowledged receipt.",
    SARStatus.UNDER_INVESTIGATION: "FIU opened an investigation.",
    SARStatus.CLOSED: "FIU closed the case.",
}


def _evidence(user: PlatformUser, suffix: str) -> list[Transaction]:
    """The subject's three latest ledger rows; a demo user without a ledger gets three fixed top-ups."""
    rows = list(Transaction.objects.filter(user=user).order_by("-created_at", "-id")[:3])
    if rows:
        return rows
    base = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)
    return [
        transaction_record(
            user=user,
            type=TransactionType.TOP_UP,
            amount=Decimal("4900.00"),
            channel=Channel.MOBILE_MONEY,
            reference=f"DEMO-SAR-{suffix}-{n}",
            reason="Mobile-money top-up",
            created_at=base + dt.timedelta(hours=n),
        )
        for n in range(1, 4)
    ]


def seed(stdout) -> None:
    users = list(PlatformUser.objects.order_by("phone_number")[:3])
    people = {key: demo_staff(key) for key in ("compliance", "compliance2", "mlro", "mlro2")}
    if len(users) < 3 or not all(people.values()):
        stdout.write("SARs: skipped (demo users or compliance staff missing)")
        return
    created = 0
    for suffix, index, kind, amount, days_ago, final, (filer, reviewer, approver), text in DEMO_SARS:
        sar_id = f"SAR-{STAMP}-{suffix}"
        if SAR.objects.filter(sar_id=sar_id).exists():
            continue
        user = users[index]
        sar = sar_create(
            actor=people[filer],
            entity_user_id=user.pk,
            suspicious_activity_type=kind,
            activity_description=text,
            amount_involved=Decimal(amount),
            date_of_suspicious_activity=dt.date.today() - dt.timedelta(days=days_ago),
            related_transaction_ids=[t.pk for t in _evidence(user, suffix)],
            sar_id=sar_id,
        )
        _casework(suffix, sar, user, people)
        road = [s for s in ROAD if not (suffix in SHORTCUT and s == SARStatus.UNDER_INVESTIGATION)]
        for status in road[: road.index(final) + 1] if final != SARStatus.DRAFT else []:
            actor = people[
                {SARStatus.PENDING_REVIEW: filer, SARStatus.PENDING_APPROVAL: reviewer}.get(status, approver)
            ]
            sar = sar_transition(
                sar=sar,
                actor=actor,
                status=status,
                note=NOTES[status],
                fiu_reference=f"FIU-SZ-2026-{suffix[-2:]}" if status == SARStatus.ACKNOWLEDGED else "",
            )
            if status == SARStatus.PENDING_REVIEW and suffix in RETURNED:
                reason, rewritten = RETURNED[suffix]
                back = people["compliance"] if filer != "compliance" else people["compliance2"]
                sar = sar_return(sar=sar, actor=back, reason=reason)
                sar = sar_update(sar=sar, actor=people[filer], activity_description=rewritten)
                sar = sar_transition(sar=sar, actor=actor, status=status, note="Senders and dates added.")
        created += 1
    stdout.write(
        f"SARs: {created} created, {SAR.objects.filter(sar_id__startswith=f'SAR-{STAMP}-DEMO').count()} "
        "demo SARs in every state"
    )


def _demo_pdf(title: str) -> bytes:
    """A one-page PDF without script or attachments (it passes the upload checks): the demo's evidence file."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(595, 842))
    pdf.docinfo["/Title"] = title
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _casework(suffix: str, sar: SAR, user: PlatformUser, people: dict) -> None:
    """What officers added while they worked the demo reports: a cited alert, comments, an evidence file."""
    if suffix == "DEMO01":
        alert = Alert.objects.filter(user=user, rule__rule_type="structuring").order_by("created_at").first()
        if alert is not None:
            sar_update(sar=sar, actor=people["compliance"], related_alert_ids=[alert.pk])
            comment_add(actor=people["compliance"], alert=alert, text="Drafting a SAR on this pattern.")
    if suffix == "DEMO03":
        comment_add(
            actor=people["compliance2"],
            sar=sar,
            text="Checked the declared occupation (student) against the funding: no income to explain it.",
        )
        comment_add(
            actor=people["compliance"],
            sar=sar,
            for_report=True,
            text="Asked about the source of the cash on 2 November, the customer said it was a family gift.",
        )
        statement = SimpleUploadedFile(
            "Wallet statement.pdf", _demo_pdf("Wallet statement"), content_type="application/pdf"
        )
        attachment_add(actor=people["compliance"], sar=sar, file=statement)
