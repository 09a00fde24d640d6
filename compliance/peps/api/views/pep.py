"""/admin/aml/pep: the PEP list (list, detail, create, bulk, update, delete, search, stats, screen) and
/admin/aml/pep/matches (list, one, confirm or dismiss). Compliance roles only (``peps.manage``): support and
finance must never learn that a user matched a PEP."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from backoffice.api import inputs
from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.errors import PayloadTooLarge, ValidationFailed
from compliance.peps.api.serializers import pep as s
from compliance.peps.choices import ScreeningChannel
from compliance.peps.filtersets import PEPFilterSet, PEPMatchFilterSet, PEPSearchFilterSet
from compliance.peps.selectors import pep as selectors
from compliance.peps.services import pep as services
from compliance.peps.services.name_screening import pep_name_screen
from compliance.peps.services.pep_matches import pep_match_review

PEP_REF = OpenApiParameter("pepId", str, OpenApiParameter.PATH, description="The PEP's id (UUID)")
MATCH_REF = OpenApiParameter("matchId", str, OpenApiParameter.PATH, description="The match's id (UUID)")
CAPABILITY = "peps.manage"


def _counted(name: str, item):
    return inline_serializer(
        name=name, fields={"success": serializers.BooleanField(), "data": item, "count": serializers.IntegerField()}
    )


class PEPViewSet(ApiViewSet):
    """The PEP list; every write screens the new or changed entries against the users and says what it found."""

    serializer_class = s.PEPOut
    filterset_class = PEPFilterSet
    default_limit = 50
    lookup_url_kwarg = "pepId"
    lookup_value_regex = "[^/]+"
    capabilities = dict.fromkeys(
        ("list", "retrieve", "create", "bulk", "update", "destroy", "search", "stats", "screen"), CAPABILITY
    )

    def get_queryset(self):
        return selectors.pep_list()

    @extend_schema(summary="List PEPs (active and inactive unless status says)", responses={200: s.PEPOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.PEPOut)

    @extend_schema(summary="One PEP with the users it matched", parameters=[PEP_REF], responses={200: s.PEPDetailOut})
    def retrieve(self, request, pepId=None):
        pep = selectors.pep_get(pepId)
        pep.matched_users = selectors.pep_matched_users(pep)
        return self.ok(s.PEPDetailOut(pep).data)

    @extend_schema(
        summary="Create a PEP and match it against every user", request=s.PEPIn, responses={201: s.PEPWriteOut}
    )
    def create(self, request):
        result = services.pep_create(actor=request.user, **self.input(s.PEPIn))
        return self.ok(s.PEPWriteOut(result).data, message="PEP created", status=201)

    @extend_schema(
        summary="Update a PEP (matching runs again when its name, aliases, date of birth or country changed)",
        parameters=[PEP_REF],
        request=s.PEPUpdateIn,
        responses={200: s.PEPUpdateOut},
    )
    def update(self, request, pepId=None):
        pep = selectors.pep_get(pepId)
        result = services.pep_update(pep=pep, actor=request.user, changes=dict(self.input(s.PEPUpdateIn)))
        result.pep.matching = result.matching
        return self.ok(s.PEPUpdateOut(result.pep).data, message="PEP updated")

    @extend_schema(
        summary="Delete a PEP for good (its matches and alerts stay)",
        parameters=[PEP_REF],
        responses={200: inline_serializer("PEPDeleted", {"id": serializers.UUIDField()})},
    )
    def destroy(self, request, pepId=None):
        pep = selectors.pep_get(pepId)
        pep_id = pep.pk
        services.pep_delete(pep=pep, actor=request.user)
        return self.ok({"id": str(pep_id)}, message="PEP deleted")

    @extend_schema(
        summary=f"Create up to {services.BULK_MAX:,} PEPs; each item is validated alone",
        request=s.PEPBulkIn,
        responses={201: s.PEPBulkOut},
    )
    @action(detail=False, methods=["post"], **SINGLE)
    def bulk(self, request):
        body = request.data
        peps = body.get("peps") if isinstance(body, dict) else None
        if isinstance(peps, list) and len(peps) > services.BULK_MAX:
            raise PayloadTooLarge(
                f"A bulk request holds at most {services.BULK_MAX:,} PEPs",
                details={"peps": [f"{len(peps):,} given, at most {services.BULK_MAX:,}."]},
            )
        self.input(s.PEPBulkIn)
        items, errors = [], []
        names = inputs.api_names(s.PEPIn)
        for index, item in enumerate(peps):
            try:
                items.append((index, inputs.validated(s.PEPIn, item)))
            except ValidationFailed as exc:
                name = item.get("name") if isinstance(item, dict) and isinstance(item.get("name"), str) else ""
                errors.append(services.ItemError(index, name, exc.message, exc.details))
        result = services.pep_bulk_create(actor=request.user, items=items)
        failures = sorted(
            [
                *errors,
                *(
                    services.ItemError(e.index, e.name, e.message, inputs.rename_details(e.details, names))
                    for e in result.errors
                ),
            ],
            key=lambda e: e.index,
        )
        data = {
            "created": len(result.created),
            "failed": len(failures),
            "errors": s.BulkErrorOut(failures, many=True).data,
            "matching": s.MatchingOut(result.matching).data,
        }
        return self.ok(data, message=f"{len(result.created)} PEP(s) created, {len(failures)} failed", status=201)

    @extend_schema(
        summary="Search PEPs by name (accents ignored), alias, position or country",
        parameters=[OpenApiParameter("q", str, required=True, description="At least 2 characters")],
        responses={200: _counted("PEPSearchOut", s.PEPOut(many=True))},
    )
    @action(detail=False, methods=["get"], filterset_class=PEPSearchFilterSet, pagination_class=None)
    def search(self, request):
        self.filter_queryset(self.get_queryset())  # checks q: required, at least 2 characters
        found, count = selectors.pep_search(term=request.query_params["q"])
        return Response({"success": True, "data": s.PEPOut(found, many=True).data, "count": count})

    @extend_schema(
        summary="PEP counts: total, active, inactive, by country, by category",
        responses={
            200: inline_serializer(
                "PEPStatsOut",
                {
                    "total": serializers.IntegerField(),
                    "active": serializers.IntegerField(),
                    "inactive": serializers.IntegerField(),
                    "byCountry": serializers.DictField(child=serializers.IntegerField()),
                    "byCategory": serializers.DictField(child=serializers.IntegerField()),
                },
            )
        },
    )
    @action(detail=False, methods=["get"], **SINGLE)
    def stats(self, request):
        return self.ok(selectors.pep_stats())

    @extend_schema(
        summary="Screen a name against the active PEPs (best first, with explanations); the screening is recorded",
        request=s.PEPScreenIn,
        responses={200: _counted("PEPScreenOut", s.ScreenHitOut(many=True))},
    )
    @action(detail=False, methods=["post"], **SINGLE)
    def screen(self, request):
        hits = pep_name_screen(actor=request.user, channel=ScreeningChannel.API, **self.input(s.PEPScreenIn)).hits
        return Response({"success": True, "data": s.ScreenHitOut(hits, many=True).data, "count": len(hits)})


class PEPMatchViewSet(ApiViewSet):
    """Users matched to PEPs, for review: confirm (the user is the PEP) or dismiss (they are not)."""

    serializer_class = s.PEPMatchOut
    filterset_class = PEPMatchFilterSet
    lookup_url_kwarg = "matchId"
    lookup_value_regex = "[^/]+"
    capabilities = dict.fromkeys(("list", "retrieve", "update"), CAPABILITY)

    def get_queryset(self):
        return selectors.match_list()

    @extend_schema(summary="List PEP matches", responses={200: s.PEPMatchOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.PEPMatchOut)

    @extend_schema(summary="One PEP match", parameters=[MATCH_REF], responses={200: s.PEPMatchOut})
    def retrieve(self, request, matchId=None):
        return self.ok(s.PEPMatchOut(selectors.match_get(matchId)).data)

    @extend_schema(
        summary="Confirm or dismiss a PEP match (audited)",
        parameters=[MATCH_REF],
        request=s.PEPMatchReviewIn,
        responses={200: s.PEPMatchOut},
    )
    def update(self, request, matchId=None):
        match = selectors.match_get(matchId)
        data = self.input(s.PEPMatchReviewIn)
        pep_match_review(match=match, actor=request.user, status=data["status"], note=data["note"])
        return self.ok(s.PEPMatchOut(selectors.match_get(matchId)).data, message="PEP match updated")
