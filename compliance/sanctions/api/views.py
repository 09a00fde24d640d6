"""/admin/aml/sanctions/lists (the lists, importing a version) and /admin/aml/sanctions/entries (the
entries, one entry with its history). Compliance roles read; MLROs and admins import."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser

from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.uploads import SizeCapUploadHandler
from compliance.sanctions.api import serializers as s
from compliance.sanctions.filtersets import SanctionsEntryFilterSet
from compliance.sanctions.models.lists import SanctionsList
from compliance.sanctions.selectors import lists as selectors
from compliance.sanctions.services.imports import MAX_FILE_BYTES, SourceFile, sanctions_import

READ = "sanctions.read"
IMPORT = "sanctions.import"
LIST_REF = OpenApiParameter("list", str, OpenApiParameter.PATH, description="The list's code: UN, OFAC, EU_FSF...")
ENTRY_REF = OpenApiParameter("entryId", str, OpenApiParameter.PATH, description="The entry's id (UUID)")


def _source(upload) -> SourceFile | None:
    return None if upload is None else SourceFile(name=upload.name or "", data=upload.read())


class SanctionsListViewSet(ApiViewSet):
    """The lists and their imports."""

    lookup_url_kwarg = "list"
    lookup_value_regex = "[^/]+"
    parser_classes = [MultiPartParser, FormParser, *ApiViewSet.parser_classes]
    capabilities = {"list": READ, "import_list": IMPORT}
    queryset = SanctionsList.objects.none()  # the schema's model; the actions read through the selectors
    pagination_class = None  # the lists come whole, in the contract's {success, data} (a handful of rows)

    @extend_schema(
        summary="The sanctions lists with their active entries and the version in force",
        responses={200: s.ListOut(many=True)},  # the envelope is added to every answer's schema (backoffice.api.schema)
    )
    def list(self, request):
        return self.ok(s.ListOut(selectors.list_summaries(), many=True).data)

    @extend_schema(
        summary="Import a new version of a list from its publisher's file (all or nothing, with its delta)",
        parameters=[LIST_REF],
        request={"multipart/form-data": s.ImportIn},
        responses={200: s.ImportOut},
    )
    @action(detail=True, methods=["post"], url_path="import", **SINGLE)
    def import_list(self, request, list=None):
        # refuse an upload over the cap while Django parses it, before it is spooled whole
        request._request.upload_handlers.insert(0, SizeCapUploadHandler(max_bytes=MAX_FILE_BYTES))
        data = self.input(s.ImportIn)
        result = sanctions_import(
            list_code=(list or "").upper(),
            file=_source(data["file"]),
            alt=_source(data.get("alt")),
            add=_source(data.get("add")),
            allow_shrink=data["allow_shrink"],
            actor=request.user,
        )
        return self.ok(s.ImportOut(result).data, message=f"{result.list_code} imported")


class SanctionsEntryViewSet(ApiViewSet):
    """Every list's entries: filters list, type, search, includeRemoved; one entry with its history."""

    filterset_class = SanctionsEntryFilterSet
    serializer_class = s.EntryOut
    lookup_url_kwarg = "entryId"
    lookup_value_regex = "[^/]+"
    capabilities = {"list": READ, "retrieve": READ}

    def get_queryset(self):
        return selectors.entry_list(include_removed=True)

    @extend_schema(
        summary="Sanctions entries (active ones unless includeRemoved)", responses={200: s.EntryOut(many=True)}
    )
    def list(self, request):
        return self.paged(self.get_queryset(), s.EntryOut)

    @extend_schema(
        summary="One entry, removed or not, with its history version by version",
        parameters=[ENTRY_REF],
        responses={200: s.EntryDetailOut},
    )
    def retrieve(self, request, entryId=None):
        return self.ok(s.EntryDetailOut(selectors.entry_get(entryId)).data)
