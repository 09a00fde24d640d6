"""Demo vendors, at every KYC stage, with small real documents (PDFs and images drawn here).

Every document goes through the same services as the API and the admin (the checks, the storage, the
status moves, the history and the audit log). Idempotent: a vendor found by e-mail keeps its documents and
history, so running the seed twice changes nothing. Expiry dates are relative to the day of seeding, so the
"expiring within 30 days" and "expired" filters always have something to show.
"""

import datetime as dt
import io

from django.contrib.auth.hashers import make_password
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw, ImageFont

from backoffice.models import Staff
from vendors.choices import REQUIRED_DOCUMENT_KEYS, DocumentKey, ReviewDecision, ReviewReason, VendorKycStatus
from vendors.models import Vendor, today
from vendors.selectors.documents import vendor_document_by_key
from vendors.services import vendor_document_review, vendor_document_upload, vendor_kyc_decide

PASSWORD = "Vendor-Demo-2026!"
OFFICER = "compliance@vikela.demo"
DECIDER = "mlro@vikela.demo"

# (business, contact, e-mail, phone, sector, the KYC story to play)
DEMO_VENDORS = [
    ("Mbabane Fresh Market", "Thandi Motsa", "market@vendors.demo", "+26876100001", "grocery", "verified"),
    ("Manzini Hardware", "Musa Dube", "hardware@vendors.demo", "+26876100002", "retail", "under_review"),
    ("Lobamba Fuel Stop", "Ayanda Hlophe", "fuel@vendors.demo", "+26876100003", "fuel", "some_documents"),
    ("Ezulwini Crafts", "Zodwa Ndlovu", "crafts@vendors.demo", "+26876100004", "crafts", "nothing"),
    ("Siteki Butchery", "Sifiso Gama", "butchery@vendors.demo", "+26876100005", "food", "rejected"),
    ("Nhlangano Pharmacy", "Lindiwe Zulu", "pharmacy@vendors.demo", "+26876100006", "health", "rerequested"),
    ("Piggs Peak Timber", "Bongani Masilela", "timber@vendors.demo", "+26876100007", "timber", "expired"),
]

TITLES = {
    DocumentKey.COMPANY_REGISTRATION: "Certificate of Incorporation",
    DocumentKey.TAX_CLEARANCE: "Tax Clearance Certificate",
    DocumentKey.BUSINESS_LICENSE: "Business Licence",
    DocumentKey.BANK_STATEMENT: "Bank Statement",
    DocumentKey.DIRECTOR_ID: "Director Identity Document",
    DocumentKey.PROOF_OF_ADDRESS: "Proof of Business Address",
    DocumentKey.TRADING_LICENSE: "Trading Licence",
    DocumentKey.OTHER: "Letter of Good Standing",
}
# Images for the identity and address papers (photographed), PDFs for the rest (scanned).
IMAGE_KEYS = {DocumentKey.DIRECTOR_ID: "jpg", DocumentKey.PROOF_OF_ADDRESS: "png"}


def document_file(business: str, document_key: str, edition: int = 1) -> SimpleUploadedFile:
    """A small, real A5 page naming the business and the paper: a PDF, a JPEG or a PNG (``edition`` > 1: a
    renewed paper, another reference)."""
    page = Image.new("RGB", (620, 440), (252, 251, 247))
    draw = ImageDraw.Draw(page)
    draw.rectangle((12, 12, 607, 427), outline=(30, 80, 60), width=3)
    draw.text((36, 32), "KINGDOM OF ESWATINI", fill=(30, 80, 60), font=ImageFont.load_default(size=18))
    draw.text((36, 70), TITLES[document_key], fill=(20, 20, 20), font=ImageFont.load_default(size=30))
    draw.text((36, 130), business, fill=(20, 20, 20), font=ImageFont.load_default(size=24))
    small = ImageFont.load_default(size=16)
    reference = f"Ref. {_reference(business, document_key)}" + (f"/{edition}" if edition > 1 else "")
    for line, text in enumerate((reference, "Issued by the Registrar, Mbabane", "Demo document: not a real record")):
        draw.text((36, 200 + 32 * line), text, fill=(70, 70, 70), font=small)
    out = io.BytesIO()
    extension = IMAGE_KEYS.get(document_key, "pdf")
    if extension == "pdf":
        page.save(out, format="PDF", resolution=150)
    elif extension == "jpg":
        page.save(out, format="JPEG", quality=85, dpi=(300, 300))
    else:
        page.save(out, format="PNG", dpi=(300, 300))
    slug = TITLES[document_key].lower().replace(" ", "-")
    return SimpleUploadedFile(f"{slug}.{extension}", out.getvalue())


def _reference(business: str, document_key: str) -> str:
    # deterministic across runs (``hash`` of a str is salted per process)
    return f"{sum(map(ord, business + document_key)) * 7919 % 10**8:08d}"


def _upload(vendor, officer, keys):
    for key in keys:
        vendor_document_upload(
            vendor=vendor, actor=officer, document_key=key, file=document_file(vendor.business_name, key)
        )


def _review(vendor, officer, key, decision=ReviewDecision.APPROVED, **fields):
    document = vendor_document_by_key(vendor=vendor, key=key, slot_names=True)
    vendor_document_review(document=document, actor=officer, decision=decision, **fields)


def _play(story: str, vendor: Vendor, officer: Staff, decider: Staff, on: dt.date) -> None:
    year = on + dt.timedelta(days=365)
    if story == "nothing":
        return
    if story == "some_documents":
        _upload(vendor, officer, REQUIRED_DOCUMENT_KEYS[:3])
        return
    _upload(vendor, officer, REQUIRED_DOCUMENT_KEYS)
    if story == "verified":
        _upload(vendor, officer, [DocumentKey.TRADING_LICENSE, DocumentKey.OTHER])
        for key in DocumentKey.values:
            _review(vendor, officer, key, issue_date=on - dt.timedelta(days=200), expiry_date=year)
        vendor_kyc_decide(vendor=vendor, actor=decider, status=VendorKycStatus.VERIFIED, reason="All papers in order")
        # the trading licence renewed after the decision: the one the decision relied on is kept as evidence
        renewed = document_file(vendor.business_name, DocumentKey.TRADING_LICENSE, edition=2)
        vendor_document_upload(vendor=vendor, actor=officer, document_key=DocumentKey.TRADING_LICENSE, file=renewed)
    elif story == "under_review":
        _review(vendor, officer, DocumentKey.COMPANY_REGISTRATION)
        _review(vendor, officer, DocumentKey.TAX_CLEARANCE, expiry_date=on + dt.timedelta(days=20))
        _review(vendor, officer, DocumentKey.BANK_STATEMENT, note="Statement for the last three months")
    elif story == "rejected":
        vendor_kyc_decide(
            vendor=vendor,
            actor=decider,
            status=VendorKycStatus.REJECTED,
            reason="The director on the ID is not a director of the registered company",
        )
    elif story == "rerequested":
        _review(
            vendor,
            officer,
            DocumentKey.BANK_STATEMENT,
            decision=ReviewDecision.REREQUESTED,
            reason_code=ReviewReason.UNREADABLE,
            note="The scan is too dark to read the account number",
        )
    elif story == "expired":
        for key in REQUIRED_DOCUMENT_KEYS:
            _review(vendor, officer, key, expiry_date=year)
        vendor_kyc_decide(vendor=vendor, actor=decider, status=VendorKycStatus.VERIFIED, reason="All papers in order")
        _review(vendor, officer, DocumentKey.TAX_CLEARANCE, expiry_date=on - dt.timedelta(days=3))
        # the same photograph another vendor filed as its proof of address: the reviewer sees it flagged
        reused = document_file("Manzini Hardware", DocumentKey.PROOF_OF_ADDRESS)
        vendor_document_upload(vendor=vendor, actor=officer, document_key=DocumentKey.OTHER, file=reused)


def seed(stdout) -> None:
    officer = Staff.objects.filter(email=OFFICER).first()
    decider = Staff.objects.filter(email=DECIDER).first()
    on = today()
    played = 0
    for name, contact, email, phone, sector, story in DEMO_VENDORS:
        vendor, created = Vendor.objects.get_or_create(
            email=email,
            defaults={
                "business_name": name,
                "contact_name": contact,
                "phone_number": phone,
                "business_sector": sector,
                "password": make_password(PASSWORD),
                "is_phone_verified": True,
            },
        )
        if officer is None or decider is None or vendor.kyc_documents.exists() or vendor.kyc_changes.exists():
            continue  # already played (or no demo staff to play it): leave it as it is
        _play(story, vendor, officer, decider, on)
        played += story != "nothing"
    statuses = ", ".join(
        f"{v.business_name} {v.kyc_status}"
        for v in Vendor.objects.filter(email__endswith="@vendors.demo").order_by("email")
    )
    stdout.write(f"Vendors: {len(DEMO_VENDORS)} ({played} KYC stories played; password {PASSWORD}): {statuses}")
