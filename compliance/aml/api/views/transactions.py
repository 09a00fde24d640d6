"""/admin/aml/transactions: the payment platform asks before money moves; /admin/aml/held-transactions: the queue.

Service keys (``X-API-Key``) open the intake and its dry run only; staff reach them by role (the intake:
admins; the dry run: compliance roles). The held queue is compliance work: support and finance get 403.
"""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import action

from backoffice.api.authentication import ServiceKeyAuthentication, StaffJWTAuthentication
from backoffice.api.permissions import ServiceKeyScopeOrRole
from backoffice.api.serializers import ApprovalRequestOut
from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.errors import NotFound
from compliance.aml.api.serializers import transactions as s
from compliance.aml.filtersets import HeldTransactionFilterSet
from kyc.choices import TransactionStatus
from kyc.models import Transaction
from kyc.services import ledger

RELEASE_AWAITING = "Release awaiting approval"

API_KEY = OpenApiParameter(
    "X-API-Key", str, OpenApiParameter.HEADER, required=False, description="A service key (instead of a JWT)"
)


@extend_schema(tags=["Transactions from the payment platform"], parameters=[API_KEY])
class TransactionIntakeViewSet(ApiViewSet):
    authentication_classes = [ServiceKeyAuthentication, StaffJWTAuthentication]
    permission_classes = [ServiceKeyScopeOrRole]
    capabilities = {"create": "transactions.record", "dry_run": "transactions.screen"}
    service_key_scopes = {"create": "transactions.record", "dry_run": "transactions.screen"}
    filter_backends = []
    pagination_class = None

    def _actor(self):
        return self.request.user

    @extend_schema(
        summary="Record a transaction after deciding it (ALLOW, REVIEW, BLOCK) before the money moves; "
        "idempotent on externalId",
        request=s.TransactionIn,
        responses={201: s.TransactionDecisionOut, 200: s.TransactionDecisionOut},
    )
    def create(self, request):
        result = ledger.transaction_intake(actor=self._actor(), **self.input(s.TransactionIn))
        data = s.TransactionDecisionOut(result.transaction).data
        if result.replayed:
            return self.ok(data, message="Already recorded: the first answer")
        return self.ok(data, message="Transaction decided", status=201)

    @extend_schema(
        summary="The decision the intake would take now; records nothing, raises no alert",
        request=s.DryRunIn,
        responses={200: s.DryRunOut},
    )
    @action(detail=False, methods=["post"], url_path="dry-run")
    def dry_run(self, request):
        result = ledger.transaction_dry_run(actor=self._actor(), **self.input(s.DryRunIn))
        return self.ok(s.DryRunOut(result).data)


@extend_schema(tags=["Transactions from the payment platform"])
class HeldTransactionViewSet(ApiViewSet):
    filterset_class = HeldTransactionFilterSet
    capabilities = {"list": "transactions.review", "release": "transactions.review", "reject": "transactions.review"}

    def get_queryset(self):
        return Transaction.objects.filter(status=TransactionStatus.HELD).select_related("user")

    @extend_schema(summary="Held transactions, oldest first", responses={200: s.HeldTransactionOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.HeldTransactionOut)

    @extend_schema(
        summary="Release a held transaction: it completes and the money moves, once; above "
        "HELD_RELEASE_FOUR_EYES_ABOVE it waits for a second person (202)",
        request=s.HeldDecisionIn,
        responses={200: s.HeldDecisionOut, 202: s.ReleaseAwaitingOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def release(self, request, pk=None):
        note = self.input(s.HeldDecisionIn)["note"]
        outcome = ledger.held_transaction_release_ask(transaction_id=_uuid_or_404(pk), actor=request.user, note=note)
        if outcome.waits:
            return self.ok(
                {"approvalRequest": ApprovalRequestOut(outcome.request).data}, message=RELEASE_AWAITING, status=202
            )
        return self.ok(s.HeldDecisionOut(outcome.result).data, message="Transaction released")

    @extend_schema(
        summary="Reject a held transaction: recorded REJECTED, no money moves",
        request=s.HeldDecisionIn,
        responses={200: s.HeldDecisionOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def reject(self, request, pk=None):
        note = self.input(s.HeldDecisionIn)["note"]
        tx = ledger.held_transaction_reject(transaction_id=_uuid_or_404(pk), actor=request.user, note=note)
        return self.ok(s.HeldDecisionOut(tx).data, message="Transaction rejected")


def _uuid_or_404(value):
    import uuid

    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise NotFound("Transaction not found") from None
