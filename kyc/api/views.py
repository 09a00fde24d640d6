"""/admin/users: thin views over kyc.selectors (reads) and kyc.services (writes)."""

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError

from backoffice.api.envelope import ok
from backoffice.api.pagination import EnvelopePagination
from backoffice.errors import ValidationFailed
from kyc import selectors, services
from kyc.api import serializers as s
from kyc.filtersets import TransactionFilterSet, UserFilterSet
from kyc.models import PlatformUser

MIN_SEARCH_LENGTH = 3


IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="A retry with the same key (per staff member) returns the first result without crediting again; "
    "the same key with a different body is 422.",
)


@extend_schema_view(
    list=extend_schema(summary="List KYC users", responses={200: s.UserListOut(many=True)}),
    retrieve=extend_schema(summary="One KYC user", responses={200: s.UserDetailOut}),
    update=extend_schema(
        summary="Update a user's first name, last name or e-mail",
        request=s.UserUpdateIn,
        responses={200: s.UserDetailOut},
    ),
    destroy=extend_schema(summary="Archive a user (soft delete)", responses={200: s.ArchiveOut}),
)
class UserViewSet(viewsets.GenericViewSet):
    """KYC users. Every write goes through kyc.services and lands in the audit log."""

    queryset = PlatformUser.objects.all()
    serializer_class = s.UserListOut
    filter_backends = [DjangoFilterBackend]
    filterset_class = UserFilterSet
    capabilities = {
        "list": "users.read",
        "retrieve": "users.read",
        "search": "users.read",
        "stats": "users.read",
        "verifications": "users.read",
        "transactions": "users.read",
        "documents": "users.read",
        "history": "users.read",
        "search_by_phone": "users.read",
        "update": "users.update",
        "destroy": "users.archive",
        "unarchive": "users.archive",
        "add_balance": "users.credit",
        "purge": "users.purge",
    }

    def get_queryset(self):
        if self.action in ("list", "search"):
            return selectors.user_list_queryset()
        return super().get_queryset()

    def get_object(self):
        return selectors.user_get(user_id=self.kwargs.get("pk"))

    def list(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(s.UserListOut(page, many=True).data)

    def retrieve(self, request, pk=None):
        return ok(s.UserDetailOut(self.get_object()).data)

    def update(self, request, pk=None):
        user = self.get_object()
        body = s.UserUpdateIn(data=request.data)
        body.is_valid(raise_exception=True)
        user = services.user_update(user=user, actor=request.user, data=dict(body.validated_data))
        return ok(s.UserDetailOut(user).data, message="User updated")

    def destroy(self, request, pk=None):
        user = services.user_archive(user=self.get_object(), actor=request.user)
        return ok(s.ArchiveOut(user).data, message="User archived")

    @extend_schema(summary="Restore an archived user", request=None, responses={200: s.ArchiveOut})
    @action(detail=True, methods=["post"])
    def unarchive(self, request, pk=None):
        user = services.user_unarchive(user=self.get_object(), actor=request.user)
        return ok(s.ArchiveOut(user).data, message="User restored")

    @extend_schema(
        summary="Search users by name, phone, e-mail or ID number",
        parameters=[OpenApiParameter("q", str, required=True, description="At least 3 characters")],
        responses={200: s.UserListOut(many=True)},
    )
    @action(detail=False, methods=["get"])
    def search(self, request):
        term = (request.query_params.get("q") or "").strip()
        if not term:
            raise ValidationFailed("Search term is required", details={"q": ["This parameter is required."]})
        if len(term) < MIN_SEARCH_LENGTH:
            raise ValidationFailed(
                f"Search term must be at least {MIN_SEARCH_LENGTH} characters",
                details={"q": [f"At least {MIN_SEARCH_LENGTH} characters."]},
            )
        params = request.query_params.copy()
        params["search"] = term
        filterset = UserFilterSet(params, queryset=self.get_queryset(), request=request)
        if not filterset.is_valid():
            raise ValidationError(filterset.errors)
        page = self.paginate_queryset(filterset.qs)
        return self.get_paginated_response(s.UserListOut(page, many=True).data)

    @extend_schema(summary="User counts", responses={200: s.UserStatsOut})
    @action(detail=False, methods=["get"])
    def stats(self, request):
        return ok(s.UserStatsOut(selectors.user_stats()).data)

    @extend_schema(summary="A user's verification records", responses={200: s.VerificationOut(many=True)})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def verifications(self, request, pk=None):
        records = selectors.user_verifications(user=self.get_object())
        return ok(s.VerificationOut(records, many=True).data)

    @extend_schema(summary="A user's ledger (paginated)", responses={200: s.TransactionOut(many=True)})
    @action(detail=True, methods=["get"], pagination_class=EnvelopePagination, filterset_class=TransactionFilterSet)
    def transactions(self, request, pk=None):
        user = self.get_object()
        rows = self.filter_queryset(selectors.user_transactions(user=user))
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(s.TransactionOut(page, many=True).data)

    @extend_schema(
        summary="A user's identity documents (signed, expiring URLs)", responses={200: s.DocumentOut(many=True)}
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def documents(self, request, pk=None):
        documents = selectors.user_documents(user=self.get_object())
        return ok(s.DocumentOut(documents, many=True, context={"request": request}).data)

    @extend_schema(summary="Everything about a user, with a timeline and statistics", responses={200: s.HistoryOut})
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def history(self, request, pk=None):
        history = selectors.user_history(user=self.get_object())
        return ok(s.HistoryOut(history, context={"request": request}).data)

    @extend_schema(
        summary="Find a user by phone number", request=s.SearchByPhoneIn, responses={200: s.SearchByPhoneOut}
    )
    @action(detail=False, methods=["post"], url_path="search-by-phone", filter_backends=[], pagination_class=None)
    def search_by_phone(self, request):
        body = s.SearchByPhoneIn(data=request.data)
        body.is_valid(raise_exception=True)
        user = selectors.user_by_phone(phone_number=body.validated_data["phoneNumber"])
        return ok(s.SearchByPhoneOut(user).data)

    @extend_schema(
        summary="Credit a user's wallet (admin credit)",
        request=s.AddBalanceIn,
        parameters=[IDEMPOTENCY_HEADER],
        responses={200: s.AddBalanceOut},
    )
    @action(detail=True, methods=["post"], url_path="add-balance", filter_backends=[], pagination_class=None)
    def add_balance(self, request, pk=None):
        user = self.get_object()
        body = s.AddBalanceIn(data=request.data)
        body.is_valid(raise_exception=True)
        result = services.user_credit(
            user=user,
            actor=request.user,
            amount=body.validated_data.get("amount"),
            reason=body.validated_data.get("reason"),
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        return ok(s.AddBalanceOut(result).data, message="Balance added")

    @extend_schema(summary="Delete a user and all their data, for good", request=None, responses={200: s.PurgeOut})
    @action(detail=True, methods=["delete"], filter_backends=[], pagination_class=None)
    def purge(self, request, pk=None):
        user = self.get_object()
        counts = services.user_purge(user=user, actor=request.user)
        return ok(s.PurgeOut({"id": user.pk, "deleted": counts}).data, message="User permanently deleted")
