"""After a load or fault run: is everything the clients were told was written there, once, and consistent?

Run by ``bench/load/mixed.py`` through ``manage.py shell`` with the server's environment (``ACKS_FILE`` is
replaced by the path of the acknowledgements the clients wrote). Prints one JSON line: counts checked and
every problem found. Checks:

* every acknowledged SAR exists, at least as far along as the last move the client saw acknowledged;
* every acknowledged credit (its Idempotency-Key) is one credit request with one ledger row: none lost, none
  applied twice, and no key has two requests;
* every user's balance equals the sum of their completed ledger rows (credits minus debits);
* every acknowledged vendor upload has its document, and every document's object is in S3 with its size;
* every acknowledged PEP bulk upload's PEPs exist, and its background screening run finished (waiting for
  the worker up to two minutes; a run left RUNNING, its chunk's retries spent during the fault, is resumed
  as beat's re-screening sweep would) with each chunk done once: a chunk run twice would count its PEPs twice;
* every payment intake acknowledged (when the endpoint exists) is one ledger row with its externalId.
"""

import json
import time
from collections import Counter
from decimal import Decimal

from django.core.files.storage import default_storage
from django.db.models import Count, Q, Sum

from compliance.peps.models.pep import PEP, ScreeningRun
from compliance.peps.services.screening import screening_resume_stale
from compliance.sars.models import SAR
from kyc.choices import CREDIT_TYPES, TransactionStatus
from kyc.models import PlatformUser, Transaction
from kyc.models.ledger import CreditRequest
from vendors.models.documents import VendorDocument

ORDER = ["DRAFT", "PENDING_REVIEW", "PENDING_APPROVAL", "SUBMITTED", "ACKNOWLEDGED", "UNDER_INVESTIGATION", "CLOSED"]
acks = json.loads(open("ACKS_FILE").read())
problems: list[str] = []
checked = Counter()

# SARs
last_seen: dict[str, str] = {}
for sar in acks.get("sar", []):
    if ORDER.index(sar["status"]) >= ORDER.index(last_seen.get(sar["id"], "DRAFT")):
        last_seen[sar["id"]] = sar["status"]
states = dict(SAR.objects.filter(pk__in=list(last_seen)).values_list("pk", "status"))
for sar_id, status in last_seen.items():
    checked["sars"] += 1
    found = {str(k): v for k, v in states.items()}.get(sar_id)
    if found is None:
        problems.append(f"SAR {sar_id} acknowledged but missing")
    elif ORDER.index(found) < ORDER.index(status):
        problems.append(f"SAR {sar_id} is {found}, a move to {status} was acknowledged")

# credits: one request and one ledger row per acknowledged key
keys = {credit["key"]: credit for credit in acks.get("credit", [])}
requests_by_key = Counter(
    CreditRequest.objects.filter(idempotency_key__in=list(keys)).values_list("idempotency_key", flat=True)
)
for key in keys:
    checked["credits"] += 1
    if requests_by_key[key] != 1:
        problems.append(f"credit {key}: {requests_by_key[key]} credit requests")
duplicated = (
    CreditRequest.objects.exclude(idempotency_key=None)
    .values("requested_by", "idempotency_key")
    .annotate(n=Count("id"))
)
problems += [
    f"Idempotency-Key {row['idempotency_key']} used by {row['n']} requests" for row in duplicated if row["n"] > 1
]
rows_per_request = Counter(
    CreditRequest.objects.filter(idempotency_key__in=list(keys))
    .exclude(transaction=None)
    .values_list("transaction", flat=True)
)
problems += [f"ledger row {tx} shared by {n} credit requests" for tx, n in rows_per_request.items() if n > 1]
admin_credits = Transaction.objects.filter(type="ADMIN_CREDIT").count()
credited_requests = CreditRequest.objects.exclude(transaction=None).count()
if admin_credits != credited_requests:
    problems.append(f"{admin_credits} ADMIN_CREDIT ledger rows for {credited_requests} applied credit requests")

# balances equal their ledgers
credit_types = list(CREDIT_TYPES)
sums = (
    Transaction.objects.filter(status=TransactionStatus.COMPLETED)
    .values("user")
    .annotate(
        credits=Sum("amount", filter=Q(type__in=credit_types)),
        debits=Sum("amount", filter=~Q(type__in=credit_types)),
    )
)
ledger = {row["user"]: (row["credits"] or Decimal(0)) - (row["debits"] or Decimal(0)) for row in sums}
for user_id, balance in PlatformUser.objects.values_list("pk", "balance"):
    checked["balances"] += 1
    if balance != ledger.get(user_id, Decimal(0)):
        problems.append(f"user {user_id}: balance {balance}, ledger {ledger.get(user_id, Decimal(0))}")

# uploads: the document of every acknowledged upload, and the object of every document
documents = set(VendorDocument.objects.values_list("vendor_id", "document_key"))
documents = {(str(v), k) for v, k in documents}
for upload in acks.get("upload", []):
    checked["uploads"] += 1
    if (upload["vendor"], upload["documentKey"]) not in documents:
        problems.append(f"upload {upload['vendor']}/{upload['documentKey']} acknowledged but no document")
for key, size in VendorDocument.objects.values_list("key", "size"):
    checked["stored objects"] += 1
    try:
        if default_storage.size(key) != size:
            problems.append(f"object {key} has another size than its record")
    except Exception as error:  # a missing object is the failure looked for
        problems.append(f"object {key} missing: {error}")

# PEP bulk uploads and their background screening
names = [name for bulk in acks.get("pep_bulk", []) for name in bulk["names"]]
present = set(PEP.objects.filter(name__in=names).values_list("name", flat=True))
checked["peps"] = len(names)
problems += [f"PEP {name} acknowledged but missing" for name in names if name not in present]
runs = [bulk["run"] for bulk in acks.get("pep_bulk", []) if bulk.get("run")]
deadline = time.monotonic() + 120
while ScreeningRun.objects.filter(pk__in=runs, status="RUNNING").exists() and time.monotonic() < deadline:
    time.sleep(1)
stalled = ScreeningRun.objects.filter(pk__in=runs, status="RUNNING")
if stalled.exists():
    # a chunk whose retries ran out during the fault leaves its run RUNNING, for beat's re-screening sweep to
    # resume once it is PEP_SCREENING_STALE_SECONDS old; do now what the sweep does, and wait again
    checked["runs resumed as the sweep does"] = len(screening_resume_stale(older_than_seconds=0))
    deadline = time.monotonic() + 120
    while stalled.exists() and time.monotonic() < deadline:
        time.sleep(1)
for run in ScreeningRun.objects.filter(pk__in=runs):
    checked["screening runs"] += 1
    if run.status != "COMPLETED" or run.chunks_done != run.chunks_total:
        problems.append(f"screening run {run.pk}: {run.status}, {run.chunks_done}/{run.chunks_total} chunks")
for run in ScreeningRun.objects.exclude(pep_ids=[]):
    if run.peps_screened > len(run.pep_ids):
        problems.append(
            f"screening run {run.pk} screened {run.peps_screened} of {len(run.pep_ids)} PEPs: a chunk ran twice"
        )

# payment intake
references = [payment["externalId"] for payment in acks.get("intake", [])]
if references:
    counted = Counter(Transaction.objects.filter(external_id__in=references).values_list("external_id", flat=True))
    checked["payments"] = len(references)
    problems += [f"payment {ref}: {counted[ref]} ledger rows" for ref in references if counted[ref] != 1]

print(json.dumps({"checked": dict(checked), "problems": len(problems), "examples": problems[:10]}))
