"""/verification: jobs (create, list, process, results, status, an officer's decision) and the two test calls.

Staff act by the role table (``verification.run`` to create, process, decide and test; ``verification.read``
to read); a platform user's token creates, processes and reads their own jobs only.
"""

from django import forms
from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser

from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.errors import ValidationFailed
from backoffice.lists.filters import StrictBooleanField
from backoffice.models import Staff
from kyc.api.authentication import StaffOrUserJWTAuthentication
from kyc.selectors.users import user_get
from verification import services
from verification.api import serializers as s
from verification.api.permissions import StaffRoleOrOwnUser
from verification.api.uploads import JobUploadHandler
from verification.filtersets import JobFilterSet
from verification.images import image_from_url
from verification.selectors.jobs import job_get, jobs
from verification.selectors.results import job_results
from verification.services import probes

TAG = ["Verification"]
JOB_ID = OpenApiParameter("job_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The job's id")


def _async_flag(raw: str | None) -> bool:
    """``?async=``: true, false, 1 or 0 (the contract's booleans); absent is false, anything else 400."""
    try:
        return bool(StrictBooleanField().to_python(raw))
    except forms.ValidationError:
        raise ValidationFailed(
            "async must be true, false, 1 or 0", details={"async": ["Must be true, false, 1 or 0."]}
        ) from None


class VerificationViewSet(ApiViewSet):
    authentication_classes = [StaffOrUserJWTAuthentication]
    permission_classes = [StaffRoleOrOwnUser]
    filterset_class = JobFilterSet
    lookup_field = "job_id"
    lookup_value_regex = "[^/]+"  # any text reaches the view, which answers 404 "Job not found"
    capabilities = {
        "list_jobs": "verification.read",
        "create_job": "verification.run",
        "process": "verification.run",
        "results": "verification.read",
        "status": "verification.read",
        "decide": "verification.run",
        "test_face_comparison": "verification.run",
        "test_ocr": "verification.run",
    }
    user_actions = ("create_job", "process", "results", "status")

    def get_queryset(self):
        return jobs()

    def get_parsers(self):
        # POST /verification/jobs is multipart; it shares its route with the list, so the choice is by method
        # (a JSON body is parsed too, and answers which images are missing)
        request = getattr(self, "request", None)
        if (
            request is not None
            and request.method == "POST"
            and getattr(self, "action_map", {}).get("post") == "create_job"
        ):
            return [MultiPartParser(), FormParser(), *super().get_parsers()]
        return super().get_parsers()

    def _job(self):
        return job_get(job_id=self.kwargs.get("job_id"), principal=self.request.user)

    @extend_schema(tags=TAG, summary="List verification jobs", responses={200: s.JobListOut(many=True)})
    @action(detail=False, methods=["get"], url_path="jobs")
    def list_jobs(self, request):
        return self.paged(self.get_queryset(), s.JobListOut)

    @extend_schema(
        tags=TAG,
        summary="Create a verification job from an ID front, a selfie and optionally an ID back",
        description="multipart/form-data. The images (JPEG or PNG, at most 10 MB each, checked by their bytes and "
        "stored without metadata) become the user's documents ID_FRONT, SELFIE and ID_BACK. Staff name the user "
        "with `userId`; a user's own token implies it.",
        request={
            "multipart/form-data": inline_serializer(
                "VerificationJobCreate",
                {
                    "userId": serializers.UUIDField(required=False),
                    "idFront": serializers.FileField(),
                    "selfie": serializers.FileField(),
                    "idBack": serializers.FileField(required=False),
                },
            )
        },
        responses={201: s.CreatedOut},
    )
    @list_jobs.mapping.post
    def create_job(self, request):
        request.upload_handlers.insert(0, JobUploadHandler())
        data = self.input(s.JobCreateIn)
        user_id = data.pop("user_id", None)
        if isinstance(request.user, Staff):
            if user_id is None:
                raise ValidationFailed("userId is required", details={"userId": ["This field is required."]})
            user, actor = user_get(user_id=user_id), request.user
        else:
            if user_id is not None and str(user_id) != str(request.user.pk):
                raise ValidationFailed("userId must be your own id", details={"userId": ["Must be your own id."]})
            user, actor = request.user, None
        job = services.job_create(user=user, actor=actor, **data)
        return self.ok(s.CreatedOut(job).data, message="Verification job created", status=201)

    @extend_schema(
        tags=TAG,
        summary="Run the whole workflow of a job, now or in the background",
        description="Without `async` (or `async=false`) the job runs in the request and the answer is its result. "
        "With `async=true` the answer is 202 with the status endpoint's fields and the job runs in the background "
        "(a worker when a broker is configured, else a thread of the server); follow it with "
        "`GET /verification/status/{jobId}` to COMPLETED, REJECTED or FAILED. A finished job answers 200 with its "
        "result either way; a job already running answers 202 without starting it again.",
        parameters=[
            JOB_ID,
            OpenApiParameter("async", OpenApiTypes.BOOL, description="true: run in the background (202)"),
        ],
        request=None,
        responses={200: s.ProcessOut, 202: s.StatusOut},
    )
    @action(detail=False, methods=["post"], url_path=r"process/(?P<job_id>[^/]+)", **SINGLE)
    def process(self, request, job_id=None):
        in_background = _async_flag(request.query_params.get("async"))
        actor = request.user if isinstance(request.user, Staff) else None
        job = self._job()
        if not in_background:
            return self.ok(s.ProcessOut(job_results(job=services.job_process(job=job, actor=actor))).data)
        job, _ = services.job_process_later(job=job, actor=actor)
        if job.is_finished:
            return self.ok(s.ProcessOut(job_results(job=job)).data)
        return self.ok(s.StatusOut(job).data, message="Verification job accepted; follow its status", status=202)

    @extend_schema(tags=TAG, summary="A job's results", parameters=[JOB_ID], responses={200: s.ResultsOut})
    @action(detail=False, methods=["get"], url_path=r"results/(?P<job_id>[^/]+)", **SINGLE)
    def results(self, request, job_id=None):
        return self.ok(s.ResultsOut(job_results(job=self._job()), context={"request": request}).data)

    @extend_schema(
        tags=TAG, summary="A job's status and the time left", parameters=[JOB_ID], responses={200: s.StatusOut}
    )
    @action(detail=False, methods=["get"], url_path=r"status/(?P<job_id>[^/]+)", **SINGLE)
    def status(self, request, job_id=None):
        return self.ok(s.StatusOut(self._job()).data)

    @extend_schema(
        tags=TAG,
        summary="Decide a job waiting for manual review (approve or reject with a note)",
        parameters=[JOB_ID],
        request=s.JobDecisionIn,
        responses={200: s.ResultsOut},
    )
    @action(detail=False, methods=["post"], url_path=r"jobs/(?P<job_id>[^/]+)/decision", **SINGLE)
    def decide(self, request, job_id=None):
        job = self._job()
        data = self.input(s.JobDecisionIn)
        job = services.job_decide(job=job, actor=request.user, **data)
        message = "Decision recorded"
        if job.awaits_review:  # possible duplicates: this approval is the first of two
            message = "Approval proposed: possible duplicates, so a second person must approve, with a reason"
        return self.ok(s.ResultsOut(job_results(job=job), context={"request": request}).data, message=message)

    @extend_schema(
        tags=TAG,
        summary="Compare the faces of two images without creating a job",
        request=s.FaceComparisonIn,
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=False, methods=["post"], url_path="test-face-comparison", **SINGLE)
    def test_face_comparison(self, request):
        data = self.input(s.FaceComparisonIn)
        probe = probes.face_comparison_probe(
            source=image_from_url(data["source_image"], request=request),
            target=image_from_url(data["target_image"], request=request),
        )
        # the quality reports are the answer's faceDetails
        body = s.face_comparison_out(
            probe.result,
            quality=probe.quality,
            threshold=data["similarity_threshold"],
            approve_at=settings.VERIFICATION_APPROVE_SIMILARITY,
            review_at=settings.VERIFICATION_REVIEW_SIMILARITY,
        )
        return self.ok(body)

    @extend_schema(
        tags=TAG, summary="Read the fields of one ID image", request=s.OcrIn, responses={200: OpenApiTypes.OBJECT}
    )
    @action(detail=False, methods=["post"], url_path="test-ocr", **SINGLE)
    def test_ocr(self, request):
        data = self.input(s.OcrIn)
        result = probes.ocr_probe(image=image_from_url(data["image_url"], request=request))
        return self.ok(s.test_ocr_out(result))
