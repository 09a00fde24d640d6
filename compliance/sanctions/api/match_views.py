"""/admin/aml/sanctions/screen (a name against every active entry, writing nothing) and
/admin/aml/sanctions/matches (list, one, confirm or dismiss). Compliance roles only: support and finance never
learn that a customer matched a sanctions list."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from backoffice.api.viewsets import SINGLE, ApiViewSet
from compliance.sanctions.api import match_serializers as s
from compliance.sanctions.match_filtersets import SanctionsMatchFilterSet
from compliance.sanctions.selectors.screening import match_get, matches_queryset, screen_name
from compliance.sanctions.services.review import sanctions_match_review

MATCH_REF = OpenApiParameter("matchId", str, OpenApiParameter.PATH, description="The match's id (UUID)")


class SanctionsMatchViewSet(ApiViewSet):
    """Customers and counterparties matched to sanctions entries, for review."""

    serializer_class = s.MatchOut
    filterset_class = SanctionsMatchFilterSet
    lookup_url_kwarg = "matchId"
    lookup_value_regex = "[^/]+"
    capabilities = {"list": "sanctions.read", "retrieve": "sanctions.read", "update": "sanctions.review"}

    def get_queryset(self):
        return matches_queryset()

    @extend_schema(summary="List sanctions matches", responses={200: s.MatchOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.MatchOut)

    @extend_schema(summary="One sanctions match", parameters=[MATCH_REF], responses={200: s.MatchOut})
    def retrieve(self, request, matchId=None):
        return self.ok(s.MatchOut(match_get(matchId)).data)

    @extend_schema(
        summary="Confirm (freezes a customer, drafts a SAR) or dismiss a sanctions match (audited)",
        parameters=[MATCH_REF],
        request=s.MatchReviewIn,
        responses={200: s.MatchOut},
    )
    def update(self, request, matchId=None):
        match = match_get(matchId)
        data = self.input(s.MatchReviewIn)
        sanctions_match_review(match=match, actor=request.user, status=data["status"], note=data["note"])
        return self.ok(s.MatchOut(match_get(matchId)).data, message="Sanctions match updated")


class SanctionsScreenViewSet(ApiViewSet):
    """One name against every active entry of every list, through the name index; nothing is written."""

    capabilities = {"create": "sanctions.read"}
    filter_backends: list = SINGLE["filter_backends"]
    pagination_class = SINGLE["pagination_class"]

    @extend_schema(
        summary="Screen a name against the active sanctions entries (best first, with explanations)",
        request=s.ScreenIn,
        responses={
            200: inline_serializer(
                name="SanctionsScreenOut",
                fields={
                    "success": serializers.BooleanField(),
                    "data": s.SanctionsScreenHitOut(many=True),
                    "count": serializers.IntegerField(),
                },
            )
        },
    )
    def create(self, request):
        data = self.input(s.ScreenIn)
        hits = screen_name(data["name"], date_of_birth=data["date_of_birth"], country=(data["country"] or None))
        return Response({"success": True, "data": s.SanctionsScreenHitOut(hits, many=True).data, "count": len(hits)})
