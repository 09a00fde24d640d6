"""/admin/users and /auth/user/...: thin views over kyc.selectors (reads) and kyc.services (writes)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.decorators import action

from backoffice.api.auth_views import PrincipalLoginView, PrincipalRegisterView
from backoffice.api.pagination import EnvelopePagination
from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.visibility import Facet, sees
from kyc import services
from kyc.api import serializers as s
from kyc.choices import CreditStatus
from kyc.filtersets import CreditRequestFilterSet, TransactionFilterSet, UserFilterSet, UserSearchFilterSet
from kyc.selectors.credits import credit_request_get, credit_requests
from kyc.selectors.history import user_history
from kyc.selectors.users import (
    user_by_phone,
    user_documents,
    user_get,
    user_list_queryset,
    user_stats,
    user_transactions,
    user_verifications,
)
from kyc.services.auth import KIND

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="A retry with the same key (per staff member) returns the first result without crediting again; "
    "the same key with a different body is 422.",
)


# Actions on one user that are neither lists nor filtered: no filter backend, no paging.
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
class UserViewSet(ApiViewSet):
    """KYC users. Every write goes through kyc.services and lands in the audit log."""

    serializer_class = s.UserListOut
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
        "unfreeze": "users.unfreeze",
        "add_balance": "users.credit",
        "purge": "users.purge",
    }

    def get_queryset(self):
        return user_list_queryset()

    def get_object(self):
        return user_get(user_id=self.kwargs.get("pk"))

    def list(self, request):
        return self.paged(self.get_queryset(), s.UserListOut)

    def retrieve(self, request, pk=None):
        return self.ok(s.UserDetailOut(self.get_object(), context={"request": request}).data)

    def update(self, request, pk=None):
        user = self.get_object()
        user = services.user_update(user=user, actor=request.user, **self.input(s.UserUpdateIn))
        return self.ok(s.UserDetailOut(user, context={"request": request}).data, message="User updated")

    def destroy(self, request, pk=None):
        user = services.user_archive(user=self.get_object(), actor=request.user)
        return self.ok(s.ArchiveOut(user).data, message="User archived")

    @extend_schema(summary="Restore an archived user", request=None, responses={200: s.ArchiveOut})
    @action(detail=True, methods=["post"])
    def unarchive(self, request, pk=None):
        user = services.user_unarchive(user=self.get_object(), actor=request.user)
        return self.ok(s.ArchiveOut(user).data, message="User restored")

    @extend_schema(
        summary="Lift a sanctions freeze (a second person, with the reason)",
        request=s.UnfreezeIn,
        responses={200: s.FreezeOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def unfreeze(self, request, pk=None):
        user = services.user_unfreeze(user=self.get_object(), actor=request.user, **self.input(s.UnfreezeIn))
        return self.ok(s.FreezeOut(user).data, message="User unfrozen")

    @extend_schema(
        summary="Search users by name, phone, e-mail or ID number", responses={200: s.UserListOut(many=True)}
    )
    @action(detail=False, methods=["get"], filterset_class=UserSearchFilterSet)
    def search(self, request):
        return self.paged(self.get_queryset(), s.UserListOut)

    @extend_schema(summary="User counts", responses={200: s.UserStatsOut})
    @action(detail=False, methods=["get"], **SINGLE)
    def stats(self, request):
        return self.ok(s.UserStatsOut(user_stats()).data)

    @extend_schema(summary="A user's verification records", responses={200: s.VerificationOut(many=True)})
    @action(detail=True, methods=["get"], **SINGLE)
    def verifications(self, request, pk=None):
        records = user_verifications(user=self.get_object())
        return self.ok(s.VerificationOut(records, many=True).data)

    @extend_schema(summary="A user's ledger (paginated)", responses={200: s.TransactionOut(many=True)})
    @action(detail=True, methods=["get"], pagination_class=EnvelopePagination, filterset_class=TransactionFilterSet)
    def transactions(self, request, pk=None):
        return self.paged(user_transactions(user=self.get_object()), s.TransactionOut)

    @extend_schema(
        summary="A user's identity documents (signed, expiring URLs)", responses={200: s.DocumentOut(many=True)}
    )
    @action(detail=True, methods=["get"], **SINGLE)
    def documents(self, request, pk=None):
        documents = user_documents(user=self.get_object())
        return self.ok(s.DocumentOut(documents, many=True, context={"request": request}).data)

    @extend_schema(summary="Everything about a user, with a timeline and statistics", responses={200: s.HistoryOut})
    @action(detail=True, methods=["get"], **SINGLE)
    def history(self, request, pk=None):
        # the risk score's reasons name alerts, SARs and PEP matches: only for those who see them (tipping-off)
        history = user_history(user=self.get_object(), risk_reasons=sees(request.user, Facet.RISK_REASONS))
        return self.ok(s.HistoryOut(history, context={"request": request}).data)

    @extend_schema(
        summary="Find a user by phone number", request=s.SearchByPhoneIn, responses={200: s.SearchByPhoneOut}
    )
    @action(detail=False, methods=["post"], url_path="search-by-phone", **SINGLE)
    def search_by_phone(self, request):
        user = user_by_phone(**self.input(s.SearchByPhoneIn))
        return self.ok(s.SearchByPhoneOut(user).data)

    @extend_schema(
        summary="Credit a user's wallet (admin credit); above CREDIT_APPROVAL_THRESHOLD it awaits a second person",
        request=s.AddBalanceIn,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: s.AddBalanceOut,
            202: s.CreditRequestEnvelopeOut,
            422: OpenApiResponse(description="The Idempotency-Key was used with another body (IDEMPOTENCY_KEY_REUSED)"),
        },
    )
    @action(detail=True, methods=["post"], url_path="add-balance", **SINGLE)
    def add_balance(self, request, pk=None):
        user = self.get_object()
        result = services.user_credit(
            user=user,
            actor=request.user,
            idempotency_key=request.headers.get("Idempotency-Key"),
            **self.input(s.AddBalanceIn),
        )
        if result.needs_approval:
            message = CREDIT_MESSAGES[result.request.status]
            return self.ok(s.CreditRequestEnvelopeOut(result.request).data, message=message, status=202)
        return self.ok(s.AddBalanceOut(result).data, message="Balance added")

    @extend_schema(summary="Delete a user and all their data, for good", request=None, responses={200: s.PurgeOut})
    @action(detail=True, methods=["delete"], **SINGLE)
    def purge(self, request, pk=None):
        user = self.get_object()
        counts = services.user_purge(user=user, actor=request.user)
        return self.ok(s.PurgeOut({"id": user.pk, "deleted": counts}).data, message="User permanently deleted")


CREDIT_MESSAGES = {
    CreditStatus.PENDING: "Credit awaiting approval",
    CreditStatus.APPROVED: "Credit approved",
    CreditStatus.REJECTED: "Credit rejected",
}


class CreditRequestViewSet(ApiViewSet):
    """Maker-checker on credits: the requests above the threshold, approved or rejected by a second person."""

    serializer_class = s.CreditRequestOut
    filterset_class = CreditRequestFilterSet
    capabilities = {
        "list": "users.credit",
        "retrieve": "users.credit",
        "approve": "users.credit",
        "reject": "users.credit",
    }

    def get_queryset(self):
        return credit_requests()

    def get_object(self):
        return credit_request_get(request_id=self.kwargs.get("pk"))

    @extend_schema(summary="List credit requests (status=PENDING: awaiting approval)")
    def list(self, request):
        return self.paged(self.get_queryset(), s.CreditRequestOut)

    @extend_schema(summary="One credit request", responses={200: s.CreditRequestEnvelopeOut})
    def retrieve(self, request, pk=None):
        return self.ok(s.CreditRequestEnvelopeOut(self.get_object()).data)

    @extend_schema(
        summary="Approve a pending credit (not the requester): the wallet is credited once",
        request=s.CreditDecisionIn,
        responses={200: s.CreditRequestEnvelopeOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def approve(self, request, pk=None):
        credit = services.credit_request_approve(
            credit_request=self.get_object(), actor=request.user, **self.input(s.CreditDecisionIn)
        )
        return self.ok(s.CreditRequestEnvelopeOut(credit).data, message="Credit approved")

    @extend_schema(
        summary="Reject a pending credit with a reason (not the requester)",
        request=s.CreditRejectIn,
        responses={200: s.CreditRequestEnvelopeOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def reject(self, request, pk=None):
        credit = services.credit_request_reject(
            credit_request=self.get_object(), actor=request.user, **self.input(s.CreditRejectIn)
        )
        return self.ok(s.CreditRequestEnvelopeOut(credit).data, message="Credit rejected")


@extend_schema_view(
    post=extend_schema(request=s.UserRegisterIn, responses={201: s.UserRegisteredOut}, summary="Register a user")
)
class UserRegisterView(PrincipalRegisterView):
    input_serializer = s.UserRegisterIn
    output_serializer = s.UserRegisteredOut
    register = staticmethod(services.user_register)


@extend_schema_view(post=extend_schema(request=s.UserLoginIn, responses={200: s.UserLoginOut}, summary="User login"))
class UserLoginView(PrincipalLoginView):
    kind = KIND
    input_serializer = s.UserLoginIn
    output_serializer = s.UserLoginOut
    principal_key = "user"
