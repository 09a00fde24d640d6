"""Case work shapes: a comment of a thread, an evidence file, and the comment body."""

from rest_framework import serializers

from backoffice.files import signed_file_url
from compliance.casework.services.casework import COMMENT_MAX


class PersonRefOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class CommentIn(serializers.Serializer):
    text = serializers.CharField(max_length=COMMENT_MAX)
    forReport = serializers.BooleanField(required=False, default=False, source="for_report")


class CommentOut(serializers.Serializer):
    id = serializers.UUIDField()
    author = PersonRefOut()
    text = serializers.CharField()
    forReport = serializers.BooleanField(source="for_report")
    createdAt = serializers.DateTimeField(source="created_at")


class AttachmentIn(serializers.Serializer):
    """The multipart body: one ``file``. Its content is checked by the upload service, not here."""

    file = serializers.FileField(allow_empty_file=True, use_url=False)


class AttachmentOut(serializers.Serializer):
    id = serializers.UUIDField()
    filename = serializers.CharField()
    size = serializers.IntegerField()
    contentType = serializers.CharField(source="content_type")
    url = serializers.SerializerMethodField()
    uploadedBy = PersonRefOut(source="uploaded_by")
    createdAt = serializers.DateTimeField(source="created_at")

    def get_url(self, attachment) -> str:
        """A short-lived signed link that serves the stored bytes unchanged (``backoffice.files``)."""
        return signed_file_url(attachment.storage_name, request=self.context.get("request"))
