"""Query-string filters of the KYC user lists and a user's ledger."""

import re

import django_filters
from django.db.models import F, Func, Q, TextField
from django.db.models.lookups import IContains, IRegex

from backoffice.lists.filters import ListFilterSet, StrictBooleanFilter
from kyc.choices import CreditStatus, RiskRating, TransactionStatus, TransactionType, VerificationStatus
from kyc.selectors.name_matching import users_named_like
from kyc.selectors.users import users_by_seen_risk

SEARCH_FIELDS = ("first_name", "last_name", "names", "surname", "phone_number", "email", "id_number")
NAME_FIELDS = ("first_name", "last_name", "names", "surname")
CONTACT_FIELDS = ("phone_number", "email", "id_number")


class Spaced(Func):
    """Text fields joined by spaces, ``(a || ' ' || b ...)``: a word of a search holds no space, so it never
    spans two fields.

    The fields must be NOT NULL (a NULL would blank the whole text). Django's ``Concat`` wraps every part in a
    COALESCE for NULLs, which made the expression and its index several times larger and slower to plan.
    """

    arg_joiner = " || ' ' || "
    template = "(%(expressions)s)"
    output_field = TextField()


# Every searched field in one text, and the name fields in one text. On PostgreSQL one trigram index on
# UPPER(SEARCH_TEXT) (migration 0012, built from this expression) finds the rows holding a word in any field
# with one index scan; a word matched field by field took a scan of each field's index.
SEARCH_TEXT = Spaced(*map(F, SEARCH_FIELDS))
NAME_TEXT = Spaced(*map(F, NAME_FIELDS))


def search_q(term: str) -> Q:
    """Find people the way staff type them: one fragment, or a full name in any order.

    One word matches as a case-insensitive substring of a name (legacy ones
    too), the phone, the e-mail or the ID number. Several words ("Thabo
    Dlamini", "dlamini thabo", "nokuthula dlamin") must each match a field,
    in any order: a name field as a whole word, the last word also as the
    start of one (a prefix, since people search as they type), or the phone,
    e-mail or ID number as a substring.

    On PostgreSQL one word is served by the trigram GIN index of each field
    (migration 0003), several by the one on all of them (``SEARCH_TEXT``,
    migration 0012); the word-boundary regular expression only rechecks the
    rows the indexes found. On SQLite both are plain ``LIKE`` and Python's
    ``REGEXP``.
    """
    term = term.strip()
    words = term.split()
    if len(words) > 1:
        q = Q()
        for position, word in enumerate(words):
            q &= _word_q(word, prefix=position == len(words) - 1)
    else:
        q = Q()
        for field in SEARCH_FIELDS:
            q |= Q(**{f"{field}__icontains": term})
    digits = "".join(ch for ch in term if ch.isdigit())
    # "7612 3456" or "(76) 12-3456" as typed by a person still finds "+26876123456" (icontains: digits have no
    # case, and it is what the phone's trigram index serves; a plain LIKE beside it made the search a full scan)
    if len(digits) >= 4 and digits != term:
        q |= Q(phone_number__icontains=digits)
    return q


def search_users(queryset, term: str):
    """``queryset`` narrowed to the people ``term`` finds (``search_q``).

    Several words are one condition per word on one trigram index (``SEARCH_TEXT``), so PostgreSQL reads the
    few rows holding every word and sorts them. Matched field by field (seven index scans a word) the estimate
    of a rare pair of common words drifted high enough for the planner to walk the whole ``created_at`` index
    for the first page instead (3 s on a million users); a ``pk IN (subquery)`` did not prevent it, since
    PostgreSQL flattens it into the same join.
    """
    return queryset.filter(search_q(term))


def search_users_tolerant(queryset, term: str):
    """The admin's customer search: ``search_users``, and when that finds nobody and ``term`` is a name, the
    people the name matcher finds it to be, typos and all (``users_named_like``: "Thaba Dlamimi" finds Thabo
    Dlamini). The API's search stays ``search_users`` (its answers are the contract's)."""
    found = search_users(queryset, term)
    if found.exists() or not any(ch.isalpha() for ch in term):
        return found
    return queryset.filter(pk__in=users_named_like(term=term))


def _word_q(word: str, *, prefix: bool) -> Q:
    """One word of a multi-word search: a whole word (or, ``prefix``, the start of one) of a name field,
    or a substring of the phone, e-mail or ID number.

    The rows holding the word anywhere come from the one trigram index on ``SEARCH_TEXT``; the rule rechecks
    only those. Fields are joined by spaces and a word holds none, so a whole word of ``NAME_TEXT`` is a whole
    word of one name field.
    """
    pattern = r"(^|\W)" + re.escape(word) + ("" if prefix else r"(\W|$)")
    in_a_contact = Q()
    for field in CONTACT_FIELDS:
        in_a_contact |= Q(**{f"{field}__icontains": word})
    return Q(IContains(SEARCH_TEXT, word)) & (Q(IRegex(NAME_TEXT, pattern)) | in_a_contact)


class UserFilterSet(ListFilterSet):
    """Filters of GET /admin/users and /admin/users/search (``q`` there, ``search`` here)."""

    sort_fields = {
        "createdAt": "created_at",
        "firstName": "first_name",
        "lastName": "last_name",
        "email": "email",
        "phoneNumber": "phone_number",
        "balance": "balance",
        # the risk as the caller may see it (kyc.selectors.users_by_seen_risk: support and finance never
        # order or filter by the points a SAR adds)
        "currentRiskScore": "seen_risk_floor",
        "riskRating": "seen_risk_band",
        "verificationStatus": "verification_status",
    }

    verificationStatus = django_filters.ChoiceFilter(
        field_name="verification_status", choices=VerificationStatus.choices
    )
    riskRating = django_filters.ChoiceFilter(field_name="seen_risk_band", choices=RiskRating.choices)
    search = django_filters.CharFilter(method="filter_search")
    hasCard = StrictBooleanFilter(method="filter_has_card")
    isArchived = StrictBooleanFilter(method="filter_noop")

    def filter_search(self, queryset, name, value):
        return search_users(queryset, value) if value.strip() else queryset

    def filter_has_card(self, queryset, name, value):
        no_card = Q(nfc_card_number__isnull=True) | Q(nfc_card_number="")
        return queryset.exclude(no_card) if value else queryset.filter(no_card)

    def filter_queryset(self, queryset):
        # archived users are a separate list: isArchived=true shows only them, anything else only active ones
        archived = bool(self.form.cleaned_data.get("isArchived"))
        viewer = getattr(self.request, "user", None)
        return super().filter_queryset(users_by_seen_risk(queryset.filter(is_archived=archived), viewer=viewer))


MIN_SEARCH_LENGTH = 3


class UserSearchFilterSet(UserFilterSet):
    """GET /admin/users/search: the list's filters plus ``q``, required and at least 3 characters."""

    q = django_filters.CharFilter(
        method="filter_search",
        required=True,
        min_length=MIN_SEARCH_LENGTH,
        error_messages={
            "required": "This parameter is required.",
            "min_length": f"At least {MIN_SEARCH_LENGTH} characters.",
        },
    )
    headlines = {
        "q": {
            "required": "Search term is required",
            "min_length": f"Search term must be at least {MIN_SEARCH_LENGTH} characters",
        }
    }


class TransactionFilterSet(ListFilterSet):
    """Filters of GET /admin/users/:id/transactions."""

    sort_fields = {"createdAt": "created_at", "amount": "amount", "type": "type", "status": "status"}

    type = django_filters.ChoiceFilter(choices=TransactionType.choices)
    status = django_filters.ChoiceFilter(choices=TransactionStatus.choices)


class CreditRequestFilterSet(ListFilterSet):
    """Filters of GET /admin/users/credit-requests: status (PENDING for the approval queue), userId, dates."""

    sort_fields = {"createdAt": "created_at", "amount": "amount", "status": "status"}

    status = django_filters.ChoiceFilter(choices=CreditStatus.choices)
    userId = django_filters.UUIDFilter(field_name="user_id")
