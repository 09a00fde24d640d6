"""Case work on alerts and SARs: ``GET|POST .../comments`` and ``GET|POST .../attachments``.

One viewset per kind of case, both from one base: the case is found from the
path (an alert by its id, a SAR by its UUID or sarId), reading needs the
kind's read capability, adding its write capability. Support and finance
hold neither, so they get 403 on all of these (tipping-off).
"""

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser

from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.uploads import ATTACHMENT, SizeCapUploadHandler
from compliance.casework.api.serializers.casework import AttachmentIn, AttachmentOut, CommentIn, CommentOut
from compliance.casework.selectors.casework import attachments_of, comments_of
from compliance.casework.services.casework import attachment_add, comment_add


def case_capabilities(*, read: str, write: str) -> dict[str, str]:
    """Reading the thread and the files needs ``read``; adding to them, ``write``."""
    return {"comments": read, "attachments": read, "comment_create": write, "attachment_create": write}


class CaseWorkViewSet(ApiViewSet):
    """The thread and the evidence files of one case; subclasses say which kind and how to find it."""

    kind = ""  # "alert" | "sar": the keyword the services and selectors take
    lookup_value_regex = "[^/]+"
    parser_classes = [MultiPartParser, FormParser, *ApiViewSet.parser_classes]

    def case(self):
        raise NotImplementedError

    def _of(self) -> dict:
        return {self.kind: self.case()}

    @extend_schema(
        summary="The comment thread of the case, oldest first", request=None, responses={200: CommentOut(many=True)}
    )
    @action(detail=True, methods=["get"], url_path="comments", **SINGLE)
    def comments(self, request, **_):
        return self.ok(CommentOut(comments_of(**self._of()), many=True).data)

    @extend_schema(summary="Add a comment (append-only)", request=CommentIn, responses={201: CommentOut})
    @comments.mapping.post
    def comment_create(self, request, **_):
        case = self._of()
        data = self.input(CommentIn)
        comment = comment_add(actor=request.user, text=data["text"], for_report=data["for_report"], **case)
        return self.ok(CommentOut(comment).data, message="Comment added", status=201)

    @extend_schema(
        summary="The evidence files of the case, with short-lived links to their bytes",
        request=None,
        responses={200: AttachmentOut(many=True)},
    )
    @action(detail=True, methods=["get"], url_path="attachments", **SINGLE)
    def attachments(self, request, **_):
        return self.ok(AttachmentOut(attachments_of(**self._of()), many=True, context={"request": request}).data)

    @extend_schema(
        summary="Attach an evidence file: PDF, JPEG or PNG whose bytes agree with its name, at most 20 MB",
        request={"multipart/form-data": AttachmentIn},
        responses={201: AttachmentOut},
    )
    @attachments.mapping.post
    def attachment_create(self, request, **_):
        case = self._of()
        # refuse a body over the cap while Django parses it, before it is spooled whole (docs/uploads.md)
        request._request.upload_handlers.insert(0, SizeCapUploadHandler(max_bytes=ATTACHMENT.max_bytes))
        data = self.input(AttachmentIn)
        attachment = attachment_add(actor=request.user, file=data["file"], **case)
        return self.ok(
            AttachmentOut(attachment, context={"request": request}).data, message="Attachment added", status=201
        )
