"""/admin/aml/rules: list, detail, create, update, toggle (and the version history)."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import action

from backoffice.api.viewsets import ApiViewSet
from compliance.aml.api.serializers import rules as s
from compliance.aml.filtersets import RuleFilterSet
from compliance.aml.selectors import rules as selectors
from compliance.aml.services import rules as services

RULE_REF = OpenApiParameter("ruleId", str, OpenApiParameter.PATH, description="The rule's ruleId or its UUID")


class RuleViewSet(ApiViewSet):
    """AML detection rules. Reading needs rules.read; writing needs rules.write (MLRO, admin)."""

    serializer_class = s.RuleOut
    filterset_class = RuleFilterSet
    pagination_class = None
    lookup_url_kwarg = "ruleId"
    lookup_value_regex = "[^/]+"
    capabilities = {
        "list": "rules.read",
        "retrieve": "rules.read",
        "versions": "rules.read",
        "create": "rules.write",
        "update": "rules.write",
        "toggle": "rules.write",
    }

    def get_queryset(self):
        return selectors.rule_list()

    @extend_schema(summary="List AML rules (an array, not paginated)", responses={200: s.RuleOut(many=True)})
    def list(self, request):
        rules = self.filter_queryset(self.get_queryset())
        return self.ok(s.RuleOut(rules, many=True).data)

    @extend_schema(summary="One AML rule", parameters=[RULE_REF], responses={200: s.RuleOut})
    def retrieve(self, request, ruleId=None):
        return self.ok(s.RuleOut(selectors.rule_get(ruleId)).data)

    @extend_schema(summary="Create an AML rule", request=s.RuleCreateIn, responses={201: s.RuleOut})
    def create(self, request):
        rule = services.rule_create(actor=request.user, **self.input(s.RuleCreateIn))
        return self.ok(s.RuleOut(rule).data, message="Rule created", status=201)

    @extend_schema(
        summary="Update an AML rule (a new version)",
        parameters=[RULE_REF],
        request=s.RuleUpdateIn,
        responses={200: s.RuleOut},
    )
    def update(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        rule = services.rule_update(rule=rule, actor=request.user, changes=dict(self.input(s.RuleUpdateIn)))
        return self.ok(s.RuleOut(rule).data, message="Rule updated")

    @extend_schema(
        summary="Enable or disable an AML rule", parameters=[RULE_REF], request=None, responses={200: s.RuleOut}
    )
    @action(detail=True, methods=["put"])
    def toggle(self, request, ruleId=None):
        rule = services.rule_toggle(rule=selectors.rule_get(ruleId), actor=request.user)
        return self.ok(s.RuleOut(rule).data, message="Rule enabled" if rule.is_active else "Rule disabled")

    @extend_schema(
        summary="Every version of an AML rule, newest first",
        parameters=[RULE_REF],
        responses={200: s.RuleVersionOut(many=True)},
    )
    @action(detail=True, methods=["get"])
    def versions(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        return self.ok(s.RuleVersionOut(selectors.rule_versions(rule), many=True).data)
