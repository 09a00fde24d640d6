"""GET /admin/audit-logs and GET /admin/audit-logs/verify (contract: audit trail integrity)."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import action

from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.filtersets import AuditLogFilterSet
from backoffice.models import AuditLog
from backoffice.services.audit_verify import audit_record_outcome, audit_verify


class AuditLogOut(serializers.ModelSerializer):
    actor = serializers.SerializerMethodField()
    objectType = serializers.CharField(source="object_type")
    objectId = serializers.CharField(source="object_id")
    ipAddress = serializers.CharField(source="ip_address", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")
    redactedAt = serializers.DateTimeField(source="redacted_at", allow_null=True)

    class Meta:
        model = AuditLog
        fields = ["id", "sequence", "actor", "action", "objectType", "objectId", "changes", "ipAddress", "createdAt"]
        fields += ["hash", "digest", "redactedAt"]

    def get_actor(self, entry) -> dict | None:
        # a system act (a lockout, the engine) has no actor; a removed account keeps its e-mail
        if entry.actor_id is None and not entry.actor_email:
            return None
        return {"id": str(entry.actor_id) if entry.actor_id else None, "email": entry.actor_email}


VerifyOut = inline_serializer(
    "AuditVerifyOut",
    {
        "intact": serializers.BooleanField(),
        "entries": serializers.IntegerField(),
        "head": inline_serializer(
            "AuditHead", {"sequence": serializers.IntegerField(), "hash": serializers.CharField()}
        ),
        "firstBroken": inline_serializer(
            "AuditBroken",
            {
                "sequence": serializers.IntegerField(),
                "reason": serializers.CharField(),
                "detail": serializers.CharField(),
            },
            allow_null=True,
        ),
    },
)


class AuditLogViewSet(ApiViewSet):
    """The audit log, newest first, and the walk of its hash chain (admins and MLROs)."""

    serializer_class = AuditLogOut
    filterset_class = AuditLogFilterSet
    capabilities = {"list": "audit.read", "verify": "audit.read"}

    def get_queryset(self):
        return AuditLog.objects.order_by("-sequence")

    @extend_schema(summary="The audit log, newest first (filters actorId, action, objectType, objectId, dates)")
    def list(self, request):
        return self.paged(self.get_queryset(), AuditLogOut)

    @extend_schema(
        summary="Walk the audit chain: intact, or its first broken entry and why", responses={200: VerifyOut}
    )
    @action(detail=False, methods=["get"], **SINGLE)
    def verify(self, request):
        result = audit_verify()
        audit_record_outcome(result)
        return self.ok(result.as_json())
