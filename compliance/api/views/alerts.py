"""/admin/aml/alerts: the paginated triage list, one alert, and its status moves."""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action

from backoffice.api.viewsets import ApiViewSet
from compliance.api.serializers import alerts as s
from compliance.filtersets import AlertFilterSet
from compliance.selectors import alerts as selectors
from compliance.services import alerts as services


class AlertViewSet(ApiViewSet):
    """AML alerts. Only compliance roles see them: support and finance must never learn of one."""

    serializer_class = s.AlertOut
    filterset_class = AlertFilterSet
    lookup_url_kwarg = "alertId"
    lookup_value_regex = "[^/]+"
    capabilities = {"list": "alerts.read", "retrieve": "alerts.read", "status": "alerts.manage"}

    def get_queryset(self):
        return selectors.alert_list()

    @extend_schema(summary="List AML alerts", responses={200: s.AlertOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.AlertOut)

    @extend_schema(summary="One AML alert with its history", responses={200: s.AlertDetailOut})
    def retrieve(self, request, alertId=None):
        return self.ok(s.AlertDetailOut(selectors.alert_get(alertId, with_events=True)).data)

    @extend_schema(
        summary="Move an alert (review, escalate, close) with a note",
        request=s.AlertStatusIn,
        responses={200: s.AlertDetailOut},
    )
    @action(detail=True, methods=["put"], filter_backends=[], pagination_class=None)
    def status(self, request, alertId=None):
        alert = selectors.alert_get(alertId)
        data = self.input(s.AlertStatusIn)
        services.alert_transition(alert=alert, actor=request.user, to_status=data["to_status"], note=data["note"])
        alert = selectors.alert_get(alertId, with_events=True)
        return self.ok(s.AlertDetailOut(alert).data, message="Alert status updated")
