"""The readers on the publishers' real files, as the product keeps them (no database)."""

import collections

import pytest

from compliance.sanctions.formats import read_ofac, read_un
from compliance.sanctions.tests.helpers import OFAC_ADD, OFAC_ALT, OFAC_SDN, UN_FILE


@pytest.fixture(scope="module")
def un():
    with open(UN_FILE, "rb") as handle:
        return {entry.reference: entry for entry in read_un(handle)}


@pytest.fixture(scope="module")
def ofac():
    with open(OFAC_SDN, "rb") as sdn, open(OFAC_ALT, "rb") as alt, open(OFAC_ADD, "rb") as add:
        return {entry.publisher_id: entry for entry in read_ofac(sdn, alt, add)}


def test_un_counts_individuals_entities_and_individual_aliases_by_quality(un):
    types = collections.Counter(entry.entry_type for entry in un.values())
    assert types == {"INDIVIDUAL": 730, "ENTITY": 273}
    qualities = collections.Counter(
        alias.quality for entry in un.values() if entry.entry_type == "INDIVIDUAL" for alias in entry.aliases
    )
    assert qualities == {"GOOD": 1524, "LOW": 615}


def test_un_names_are_the_four_parts_in_reading_order(un):
    assert un["CDi.001"].name == "ERIC BADEGE"
    assert un["CDi.002"].name == "FRANK KAKOLELE BWAMBALE"
    four = [
        entry for entry in un.values() if entry.details.get("comments") is not None and len(entry.name.split()) >= 4
    ]
    assert four, "some UN individuals have four name parts"


def test_un_entity_aliases_keep_their_kind(un):
    adf = un["CDe.001"]
    assert adf.name == "ADF" and adf.entry_type == "ENTITY"
    kinds = {alias.name: alias.kind for alias in adf.aliases}
    assert kinds["Allied Democratic Forces"] == "aka"
    assert any(kind == "fka" for kind in kinds.values())


def test_un_dates_of_birth_exact_year_and_range(un):
    dates = [d for entry in un.values() for d in entry.dates_of_birth]
    assert un["CDi.001"].dates_of_birth == ["1971"]  # a year
    assert any(len(d) == 10 for d in dates)  # exact dates
    ranges = [d for d in dates if "/" in d]
    assert len(ranges) >= 25 and all(int(d[:4]) < int(d[5:]) for d in ranges)


def test_un_programmes_references_listing_dates_nationalities(un):
    badege = un["CDi.001"]
    assert badege.programs == ["DRC"] and badege.publisher_id == "6907993"
    assert str(badege.listed_on) == "2012-12-31" and badege.nationalities == ["CD"]
    with_nationality = [entry for entry in un.values() if entry.nationalities]
    assert len(with_nationality) >= 600 and all(len(c) == 2 for e in with_nationality for c in e.nationalities)


def test_ofac_counts_and_types(ofac):
    assert len(ofac) == 7379
    types = collections.Counter(entry.entry_type for entry in ofac.values())
    assert types == {"INDIVIDUAL": 3845, "ENTITY": 2994, "VESSEL": 323, "AIRCRAFT": 217}


def test_ofac_names_in_reading_order_and_entities_as_written(ofac):
    assert ofac["26235"].name == "Alexander Aleksandrovich MALKEVICH"
    assert ofac["36"].name == "AEROCARIBBEAN AIRLINES" and ofac["36"].programs == ["CUBA"]
    delos = next(e for e in ofac.values() if "DELOS REYES" in e.name)
    assert delos.name == "Feliciano Semborio DELOS REYES Jr."


def test_ofac_remarks_give_dates_of_birth_and_nationalities(ofac):
    malkevich = ofac["26235"]
    assert malkevich.dates_of_birth == ["1975-06-14"]
    individuals = [e for e in ofac.values() if e.entry_type == "INDIVIDUAL"]
    assert sum(1 for e in individuals if e.dates_of_birth) > 3000
    assert sum(1 for e in ofac.values() if e.nationalities) > 1500
    assert any("/" in d for e in individuals for d in e.dates_of_birth)  # "1968 to 1969"
    assert all(len(c) == 2 and c.isupper() for e in ofac.values() for c in e.nationalities)
    # an entry with "-0-" everywhere has nothing made up
    assert ofac["36"].dates_of_birth == [] and "remarks" not in ofac["36"].details


def test_ofac_alt_names_and_addresses_join_their_entries(ofac):
    assert [a.name for a in ofac["36"].aliases] == ["AERO-CARIBBEAN"]
    assert ofac["36"].details["addresses"] == ["Havana, Cuba"]
    kinds = collections.Counter(a.kind for e in ofac.values() for a in e.aliases)
    assert kinds["fka"] > 300 and kinds["nka"] > 10
