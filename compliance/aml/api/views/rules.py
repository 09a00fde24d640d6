"""/admin/aml/rules: list, detail, create, update, toggle, the version history, proposals and backtests.

With RULE_FOUR_EYES on, update and toggle may answer 202 "Change proposed"
with the proposal instead of the rule (compliance.aml.services.governance).
"""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import action

from backoffice.api.serializers import ApprovalRequestOut
from backoffice.api.viewsets import ApiViewSet
from compliance.aml.api.serializers import rules as s
from compliance.aml.engine import backtest as backtests
from compliance.aml.filtersets import RuleFilterSet
from compliance.aml.selectors import rules as selectors
from compliance.aml.services import governance
from kyc.selectors.users import user_get

PROPOSED = "Change proposed"
PROPOSAL_REF = OpenApiParameter("id", str, OpenApiParameter.PATH, description="The proposal's id")

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
        "proposals": "rules.read",
        "approve": "rules.approve",
        "reject": "rules.approve",
        "backtest": "rules.read",
        "snoozes": "rules.read",
        "snooze_create": "rules.write",
        "snooze_end": "rules.write",
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

    @extend_schema(
        summary="Create an AML rule (under four eyes one asked for active is created off, switching on proposed)",
        request=s.RuleCreateIn,
        responses={201: s.RuleOut},
    )
    def create(self, request):
        outcome = governance.rule_create_governed(actor=request.user, **self.input(s.RuleCreateIn))
        data = s.RuleOut(outcome.rule).data
        if outcome.proposed:
            data = {**data, "proposal": s.ProposalOut(outcome.proposal).data}
        return self.ok(data, message="Rule created", status=201)

    @extend_schema(
        summary="Update an AML rule (a new version)",
        parameters=[RULE_REF],
        request=s.RuleUpdateIn,
        responses={200: s.RuleOut},
    )
    def update(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        changes = dict(self.input(s.RuleUpdateIn))
        reason = changes.pop("reason", "")
        outcome = governance.rule_change(rule=rule, actor=request.user, changes=changes, reason=reason)
        if outcome.proposed:
            return self._proposed(outcome.proposal)
        return self.ok(s.RuleOut(outcome.rule).data, message="Rule updated")

    def _proposed(self, proposal):
        return self.ok({"proposal": s.ProposalOut(proposal).data}, message=PROPOSED, status=202)

    @extend_schema(
        summary="Enable or disable an AML rule (switching on may be a proposal under four eyes)",
        parameters=[RULE_REF],
        request=s.RuleToggleIn,
        responses={200: s.RuleOut},
    )
    @action(detail=True, methods=["put"])
    def toggle(self, request, ruleId=None):
        body = request.data if isinstance(request.data, dict) else {}
        reason = self.input(s.RuleToggleIn, data={k: v for k, v in body.items() if k == "reason"}).get("reason", "")
        outcome = governance.rule_toggle_or_propose(rule=selectors.rule_get(ruleId), actor=request.user, reason=reason)
        if outcome.proposed:
            return self._proposed(outcome.proposal)
        rule = outcome.rule
        return self.ok(s.RuleOut(rule).data, message="Rule enabled" if rule.is_active else "Rule disabled")

    @extend_schema(
        summary="Proposed changes of an AML rule, newest first",
        parameters=[RULE_REF],
        responses={200: s.ProposalOut(many=True)},
    )
    @action(detail=True, methods=["get"])
    def proposals(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        return self.ok(s.ProposalOut(selectors.rule_proposals(rule), many=True).data)

    @extend_schema(
        summary="Approve a proposed change (MLRO or admin, not the proposer): it becomes the next version",
        parameters=[RULE_REF, PROPOSAL_REF],
        request=s.ProposalDecisionIn,
        responses={200: s.ProposalOut},
    )
    @action(detail=True, methods=["post"], url_path=r"proposals/(?P<id>[^/]+)/approve")
    def approve(self, request, ruleId=None, id=None):
        proposal = selectors.proposal_get(selectors.rule_get(ruleId), id)
        note = self.input(s.ProposalDecisionIn).get("reason", "")
        proposal = governance.proposal_approve(proposal=proposal, actor=request.user, note=note)
        rule = selectors.rule_get(str(proposal.rule_id))
        return self.ok({**s.ProposalOut(proposal).data, "rule": s.RuleOut(rule).data}, message="Change approved")

    @extend_schema(
        summary="Reject a proposed change with a reason (MLRO or admin, not the proposer)",
        parameters=[RULE_REF, PROPOSAL_REF],
        request=s.ProposalRejectIn,
        responses={200: s.ProposalOut},
    )
    @action(detail=True, methods=["post"], url_path=r"proposals/(?P<id>[^/]+)/reject")
    def reject(self, request, ruleId=None, id=None):
        proposal = selectors.proposal_get(selectors.rule_get(ruleId), id)
        reason = self.input(s.ProposalRejectIn)["reason"]
        proposal = governance.proposal_reject(proposal=proposal, actor=request.user, reason=reason)
        return self.ok(s.ProposalOut(proposal).data, message="Change rejected")

    @extend_schema(
        summary="Run the rule (or proposed conditions) over a past window without raising alerts",
        parameters=[RULE_REF],
        request=s.BacktestIn,
    )
    @action(detail=True, methods=["post"])
    def backtest(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        body = self.input(s.BacktestIn)
        result = backtests.backtest(
            rule=rule, since=body["since"], until=body["until"], conditions=body.get("conditions")
        )
        return self.ok(backtests.result_json(result))

    @extend_schema(
        summary="Every version of an AML rule, newest first",
        parameters=[RULE_REF],
        responses={200: s.RuleVersionOut(many=True)},
    )
    @action(detail=True, methods=["get"])
    def versions(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        history = selectors.rule_history(rule)
        changes = {entry["version"].pk: entry["changes"] for entry in history}
        versions = [entry["version"] for entry in history]
        return self.ok(s.RuleVersionOut(versions, many=True, context={"changes": changes}).data)

    @extend_schema(
        summary="Snoozes of an AML rule (one customer each), newest first",
        parameters=[RULE_REF],
        responses={200: s.SnoozeOut(many=True)},
    )
    @action(detail=True, methods=["get"])
    def snoozes(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        return self.ok(s.SnoozeOut(selectors.rule_snoozes(rule), many=True).data)

    @extend_schema(
        summary="Snooze the rule for one customer until expiresAt, with a reason (audited)",
        parameters=[RULE_REF],
        request=s.SnoozeIn,
        responses={201: s.SnoozeOut},
    )
    @snoozes.mapping.post
    def snooze_create(self, request, ruleId=None):
        rule = selectors.rule_get(ruleId)
        body = self.input(s.SnoozeIn)
        outcome = governance.rule_snooze_ask(
            rule=rule,
            user=user_get(user_id=body["user_id"]),
            actor=request.user,
            expires_at=body["expires_at"],
            reason=body["reason"],
        )
        if outcome.waits:
            # under four eyes a HIGH or CRITICAL rule's snooze waits for a second person (docs/dual-control.md)
            data = {"approvalRequest": ApprovalRequestOut(outcome.request).data}
            return self.ok(data, message="Snooze awaiting approval", status=202)
        return self.ok(s.SnoozeOut(outcome.result).data, message="Rule snoozed", status=201)

    @extend_schema(
        summary="End a snooze now (the rule raises alerts for the customer again)",
        parameters=[RULE_REF, OpenApiParameter("id", int, OpenApiParameter.PATH)],
        request=None,
        responses={200: s.SnoozeOut},
    )
    @action(detail=True, methods=["post"], url_path=r"snoozes/(?P<id>[0-9]+)/end")
    def snooze_end(self, request, ruleId=None, id=None):
        snooze = selectors.snooze_get(selectors.rule_get(ruleId), id)
        return self.ok(s.SnoozeOut(governance.rule_snooze_end(snooze=snooze, actor=request.user)).data)
