"""Frequency weighting: rare parts identify, common parts barely do."""

from names import DEFAULT_FREQUENCIES, NameFrequencies, Person, compare
from names.weights import INITIAL_WEIGHT, MIN_WEIGHT, PARTICLE_WEIGHT

USERS = NameFrequencies.from_names(
    ["Sipho Dlamini", "Themba Dlamini", "Nomsa Dlamini", "Zodwa Dlamini", "Bongani Dlamini", "Sipho Nkosi"] * 200
    + ["Sibusiso Mavimbela"]
)


def test_counting_names_counts_each_part_once_per_person():
    counts = NameFrequencies.from_names(["Sipho Dlamini", "Dlamini, Sipho Sipho", "Themba Nkosi"])
    assert counts.total == 3
    assert counts.count("sipho") == 2 and counts.count("dlamini") == 2 and counts.count("nkosi") == 1


def test_rare_and_unseen_parts_weigh_fully_and_common_parts_little():
    # one user in 1,201 is rare here, but not as rare as a part nobody has
    assert USERS.weight("mavimbela") < USERS.weight("unseenname") == 1.0
    assert MIN_WEIGHT <= USERS.weight("dlamini") < USERS.weight("sipho") < USERS.weight("mavimbela")


def test_initials_and_particles_weigh_little():
    assert USERS.weight("s") == INITIAL_WEIGHT < 0.5
    assert USERS.weight("bin") == PARTICLE_WEIGHT


def test_a_shared_rare_surname_counts_for_more_than_a_shared_common_one():
    rare = compare(Person("Sibusiso Mavimbela"), Person("Themba Mavimbela"), frequencies=USERS).score
    common = compare(Person("Sibusiso Dlamini"), Person("Themba Dlamini"), frequencies=USERS).score
    assert rare > common
    assert rare < 0.8  # different given names still decide


def test_without_counts_a_prior_keeps_the_commonest_surnames_light():
    assert DEFAULT_FREQUENCIES.weight("dlamini") < DEFAULT_FREQUENCIES.weight("mavimbela")
    default = compare(Person("Sipho Dlamini"), Person("Themba Dlamini")).score
    assert default == compare(Person("Sipho Dlamini"), Person("Themba Dlamini"), frequencies=None).score


def test_with_no_one_counted_every_part_weighs_the_same():
    empty = NameFrequencies()
    assert empty.weight("dlamini") == empty.weight("mavimbela") == 1.0
