"""The joined text a search of several words reads (``kyc.filtersets.SEARCH_TEXT``)."""

from kyc.filtersets import SEARCH_FIELDS
from kyc.models import PlatformUser


def test_every_searched_field_is_not_null():
    # the fields are joined with ||, where one NULL would blank the whole text and hide the user from searches
    nullable = [name for name in SEARCH_FIELDS if PlatformUser._meta.get_field(name).null]
    assert nullable == []
