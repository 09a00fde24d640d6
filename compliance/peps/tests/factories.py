"""PEPs made through the PEP service, so their name keys, content hash and matching are those of a real entry."""

import factory

from compliance.peps.choices import PEPCategory
from compliance.peps.models import PEP
from compliance.peps.services.pep import pep_create


class PEPFactory(factory.Factory):
    """``PEPFactory(name=...)``: created by ``pep_create`` (screened against the users as the API would)."""

    class Meta:
        model = PEP

    name = factory.Sequence(lambda n: f"Lurano Vetsikali{'' if n == 0 else f' {chr(65 + n % 26)}'}")
    category = PEPCategory.GOVERNMENT_OFFICIAL
    position = "Minister"
    country = "Eswatini"

    @classmethod
    def _create(cls, model_class, *args, actor=None, **fields):
        return pep_create(actor=actor, **fields).pep
