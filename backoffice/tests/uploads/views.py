"""A tiny upload endpoint for the tests of the request path: what a feature's view will look like."""

from dataclasses import replace

from django.urls import path
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from backoffice.api.permissions import IsStaff
from backoffice.uploads import VENDOR_KYC, SizeCapUploadHandler, safe_filename, upload_store

POLICY = replace(VENDOR_KYC, max_bytes=1024 * 1024)  # small, so the tests stay light


class UploadView(APIView):
    # signed in, as every upload is: a body this large is read only for an authenticated request
    permission_classes = [IsStaff]
    parser_classes = [MultiPartParser]

    def post(self, request):
        request.upload_handlers.insert(0, SizeCapUploadHandler(max_bytes=POLICY.max_bytes))
        upload = request.data["file"]
        stored = upload_store(file=upload, name=f"uploads/{safe_filename(upload.name)}", policy=POLICY)
        return Response({"key": stored.name, "size": stored.size, "sha256": stored.sha256}, status=201)


urlpatterns = [path("upload", UploadView.as_view())]
