from decimal import Decimal

import factory
from django.utils import timezone

from kyc.choices import DocumentType, TransactionType, VerificationStatus, VerificationType
from kyc.models import KycDocument, PlatformUser, Transaction, VerificationRecord
from kyc.pngs import solid_png

PASSWORD = "User-Passw0rd!x"


class PlatformUserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlatformUser
        skip_postgeneration_save = True

    phone_number = factory.Sequence(lambda n: f"+268761{n:05d}")
    email = factory.Sequence(lambda n: f"user{n}@example.com")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    referral_code = factory.Sequence(lambda n: f"REF{n:05d}")
    password = factory.django.Password(PASSWORD)
    is_phone_verified = True


class TransactionFactory(factory.django.DjangoModelFactory):
    """A raw ledger row; use kyc.services.transaction_record when the balance must follow."""

    class Meta:
        model = Transaction

    user = factory.SubFactory(PlatformUserFactory)
    type = TransactionType.TOP_UP
    amount = Decimal("100.00")
    reference = factory.Sequence(lambda n: f"TX-TEST-{n:08d}")
    created_at = factory.LazyFunction(timezone.now)

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        # a raw row still counts in its wallet's hourly activity, as the ledger service keeps it
        from kyc.services.activity import activity_add

        row = super()._create(model_class, *args, **kwargs)
        if row.status == "COMPLETED":
            activity_add(row)
        return row


class KycDocumentFactory(factory.django.DjangoModelFactory):
    """An identity image stored through the default storage (point MEDIA_ROOT at a temp dir in tests)."""

    class Meta:
        model = KycDocument

    user = factory.SubFactory(PlatformUserFactory)
    type = DocumentType.ID_FRONT
    file = factory.django.FileField(filename="id-front.png", data=solid_png())
    content_type = "image/png"
    size = 100


class VerificationRecordFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = VerificationRecord

    user = factory.SubFactory(PlatformUserFactory)
    type = VerificationType.IDENTITY
    status = VerificationStatus.PENDING
