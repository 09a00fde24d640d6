"""/admin/aml/alerts: the paginated triage list, one alert, its status moves, its assignee, and bulk triage."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action

from backoffice.api.viewsets import SINGLE, ApiViewSet
from compliance.aml.api.serializers import alerts as s
from compliance.aml.filtersets import AlertFilterSet
from compliance.aml.selectors import alerts as selectors
from compliance.aml.services import alerts as services
from compliance.casework.api.views.casework import CaseWorkViewSet, case_capabilities


class AlertViewSet(ApiViewSet):
    """AML alerts. Only compliance roles see them: support and finance must never learn of one."""

    serializer_class = s.AlertOut
    filterset_class = AlertFilterSet
    lookup_url_kwarg = "alertId"
    lookup_value_regex = "[^/]+"
    capabilities = {
        "list": "alerts.read",
        "retrieve": "alerts.read",
        "status": "alerts.manage",
        "assignee": "alerts.manage",
        "bulk": "alerts.manage",
    }

    def get_queryset(self):
        return selectors.alert_list()

    @extend_schema(summary="List AML alerts", responses={200: s.AlertOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.AlertOut)

    @extend_schema(summary="One AML alert with its history", responses={200: s.AlertDetailOut})
    def retrieve(self, request, alertId=None):
        return self.ok(s.AlertDetailOut(selectors.alert_get(alertId, with_events=True)).data)

    @extend_schema(
        summary="Move an alert (review, escalate, close, reopen) with a note; closing as a false positive "
        "also needs a reasonCode",
        request=s.AlertStatusIn,
        responses={200: s.AlertDetailOut},
    )
    @action(detail=True, methods=["put"], **SINGLE)
    def status(self, request, alertId=None):
        alert = selectors.alert_get(alertId)
        services.alert_transition(alert=alert, actor=request.user, **self.input(s.AlertStatusIn))
        alert = selectors.alert_get(alertId, with_events=True)
        return self.ok(s.AlertDetailOut(alert).data, message="Alert status updated")

    @extend_schema(
        summary="Assign an alert to a staff member (assigneeId null unassigns)",
        request=s.AlertAssigneeIn,
        responses={200: s.AlertDetailOut},
    )
    @action(detail=True, methods=["put"], **SINGLE)
    def assignee(self, request, alertId=None):
        alert = selectors.alert_get(alertId)
        data = self.input(s.AlertAssigneeIn)
        assignee = services.assignee_from_id(data["assignee_id"])
        services.alert_assign(alert=alert, actor=request.user, assignee=assignee)
        alert = selectors.alert_get(alertId, with_events=True)
        return self.ok(s.AlertDetailOut(alert).data, message="Alert assigned" if assignee else "Alert unassigned")

    @extend_schema(
        summary="Assign, or close as false positives, up to 500 alerts with one reason",
        request=s.AlertBulkIn,
        responses={200: s.AlertBulkOut},
    )
    @action(detail=False, methods=["post"], **SINGLE)
    def bulk(self, request):
        data = dict(self.input(s.AlertBulkIn))
        if data["action"] == services.BulkAction.ASSIGN:
            data["assignee"] = services.assignee_from_id(data.pop("assignee_id"))
        else:
            data.pop("assignee_id", None)
        result = services.alert_bulk(actor=request.user, **data)
        return self.ok(s.AlertBulkOut(result).data, message=f"{result.updated} updated, {result.failed} failed")


@extend_schema(tags=["AML alerts"])
class AlertCaseWorkViewSet(CaseWorkViewSet):
    kind = "alert"
    lookup_url_kwarg = "alertId"
    capabilities = case_capabilities(read="alerts.read", write="alerts.manage")

    def case(self):
        return selectors.alert_get(self.kwargs["alertId"])
