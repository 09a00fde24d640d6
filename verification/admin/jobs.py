"""The verification pages of the admin site: the job queue, and one job with its images, findings and decision.

A job waiting for manual review shows the officer what the engine saw (the two faces side by side, the card's
fields against the profile, every check of the rule, possible duplicates with links) and two buttons that call
``verification.services.job_decide``; a job that is pending or failed can be run from the page
(``job_process``). Nothing here is editable as a form: the job is the engine's record.
"""

import io
from functools import partial

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.urls import path, reverse
from django.utils.html import format_html
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin.actions import Done, object_action
from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin, StateHistoryInline
from backoffice.admin.dashboard import register_card
from backoffice.admin.fields import Badge
from backoffice.errors import DomainError
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.uploads import image_thumbnail_png
from verification import services
from verification.choices import Decision, ImageRole, JobStatus
from verification.models import VerificationJob, VerificationJobEvent
from verification.selectors.jobs import job_get, job_image, job_work_counts
from verification.selectors.results import job_results

STATUS_LABELS = {
    JobStatus.PENDING: "info",
    JobStatus.PROCESSING: "warning",
    JobStatus.COMPLETED: "success",
    JobStatus.REJECTED: "danger",
    JobStatus.FAILED: "danger",
}
DECISION_LABELS = {Decision.APPROVED: "success", Decision.MANUAL_REVIEW: "warning", Decision.REJECTED: "danger"}
THUMBNAIL_SIDE = 360
CHECK_LABELS = {
    "image_quality": "Image quality",
    "document_valid": "Document in date",
    "face_match": "Same face",
    "ocr_complete": "Card read in full",
    "name_matches_profile": "Name agrees with the profile",
    "id_number_matches_profile": "ID number agrees with the profile",
    "date_of_birth_matches_profile": "Date of birth agrees with the profile",
    "duplicates": "No other user with this identity",
    "review_reasons": "Why a person must look",
}


class AwaitingReviewFilter(admin.SimpleListFilter):
    title = "manual review"
    parameter_name = "review"

    def lookups(self, request, model_admin):
        return [("waiting", "Waiting for an officer"), ("decided", "Decided by an officer")]

    def queryset(self, request, queryset):
        if self.value() == "waiting":
            return queryset.filter(decision=Decision.MANUAL_REVIEW, decided_at__isnull=True)
        if self.value() == "decided":
            return queryset.filter(decided_at__isnull=False)
        return queryset


def _with_reasons(exc: DomainError) -> str:
    reasons = "; ".join(" ".join(v) for v in (exc.details or {}).values())
    return f"{exc.said}: {reasons}" if reasons else exc.said


def framed_thumbnail(data: bytes, *, faces: list[dict], max_side: int) -> bytes:
    """The image scaled to ``max_side`` with the engine's face boxes drawn: green the face compared, amber others.

    The boxes are in the stored image's pixels (the engine reads the same upright image the upload stored).
    """
    from PIL import Image, ImageDraw

    png = image_thumbnail_png(io.BytesIO(data), max_side=max_side)
    if not faces:
        return png
    with Image.open(io.BytesIO(data)) as original:
        width = original.width
    image = Image.open(io.BytesIO(png)).convert("RGB")
    scale = image.width / width if width else 1.0
    draw = ImageDraw.Draw(image)
    line = max(2, round(image.width / 150))
    for index, face in enumerate(faces):
        box = face.get("box") or {}
        left, top = box.get("left", 0) * scale, box.get("top", 0) * scale
        right, bottom = left + box.get("width", 0) * scale, top + box.get("height", 0) * scale
        draw.rectangle((left, top, right, bottom), outline=(5, 150, 105) if index == 0 else (217, 119, 6), width=line)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


QUALITY_ROWS = (
    ("size_px", "Face size", "{:.0f} px"),
    ("sharpness", "Sharpness", "{:.0f}"),
    ("brightness", "Brightness", "{:.0f} / 255"),
    ("glare", "Glare", "{:.1%}"),
)


def quality_rows(quality: dict) -> list[dict]:
    """Per image: the measured face size, sharpness, brightness and glare, and the gate's problems."""
    rows = []
    for role, report in quality.items():
        face = (report.get("faces") or [{}])[0]
        metrics = [
            {"label": label, "value": fmt.format(face[key])}
            for key, label, fmt in QUALITY_ROWS
            if isinstance(face.get(key), int | float)
        ]
        label = ImageRole(role).label if role in ImageRole.values else role
        issues = [issue.get("message", "") for issue in report.get("issues", [])]
        rows.append({"role": label, "passed": report.get("passed"), "metrics": metrics, "issues": issues})
    return rows


class VerificationJobEventInline(StateHistoryInline):
    model = VerificationJobEvent
    verbose_name = "status change"
    verbose_name_plural = "Status history"


@admin.register(VerificationJob)
class VerificationJobAdmin(ReadOnlyAdminMixin, ModelAdmin):
    list_display = (
        "short_id",
        "user_link",
        "status_badge",
        "decision_badge",
        "similarity",
        "duplicate_count",
        "created_at",
    )
    list_filter = (AwaitingReviewFilter, "status", "decision", "engine")
    list_select_related = ("user",)
    search_fields = ("=id", "user__phone_number", "user__first_name", "user__last_name", "user__id_number")
    search_help_text = "Job id, or the user's phone, name or ID number"
    list_per_page = 50
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    inlines = [VerificationJobEventInline]
    change_form_outer_before_template = "verification/admin/job_panel.html"
    fields = (
        "status",
        "current_stage",
        "progress",
        "decision",
        "rejection_reason",
        "engine",
        "created_at",
        "completed_at",
    )
    readonly_fields = fields

    class Media:
        css = {"all": ("verification/admin.css",)}

    def get_queryset(self, request) -> QuerySet[VerificationJob]:
        return super().get_queryset(request).select_related("user", "decided_by", "approval_proposed_by")

    # ------------------------------------------------------------ list

    @display(description="Job")
    def short_id(self, obj):
        return str(obj.pk)[:8]

    @display(description="User")
    def user_link(self, obj):
        if obj.user is None:
            return "(purged)"
        url = reverse("admin:kyc_platformuser_change", args=[obj.user_id])
        return format_html('<a href="{}">{}</a>', url, obj.user.full_name or obj.user.phone_number)

    @display(description="Status", ordering="status", label=STATUS_LABELS)
    def status_badge(self, obj):
        return Badge(obj.status, obj.get_status_display())  # the colour from the code, the text in words

    @display(description="Decision", ordering="decision", label=DECISION_LABELS)
    def decision_badge(self, obj):
        # the colour from the code, the text in words (not MANUAL_REVIEW: issue 31)
        if obj.awaits_review:
            return Badge(Decision.MANUAL_REVIEW, Decision.MANUAL_REVIEW.label)
        return Badge(obj.decision, obj.get_decision_display()) if obj.decision else "-"

    @display(description="Face similarity")
    def similarity(self, obj):
        value = (obj.face_result or {}).get("similarity")
        return "-" if value is None else f"{value:.0f}%"

    @display(description="Duplicates")
    def duplicate_count(self, obj):
        count = len(obj.duplicates or [])
        return format_html('<strong class="vjob-dup">{}</strong>', count) if count else "0"

    # ------------------------------------------------------------ one job

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<uuid:object_id>/decide/", view(self.decide_view), name="verification_verificationjob_decide"),
            path("<uuid:object_id>/process/", view(self.process_view), name="verification_verificationjob_process"),
            path(
                "<uuid:object_id>/image/<str:role>/",
                view(self.image_view),
                name="verification_verificationjob_image",
            ),
        ] + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        job = self.get_object(request, object_id)
        extra_context = extra_context or {}
        if job is not None and self.has_view_permission(request, job):
            extra_context["vjob"] = self.panel(request, job)
        return super().change_view(request, object_id, form_url, extra_context)

    def panel(self, request, job: VerificationJob) -> dict:
        # what the job found is the results endpoint's value (the card against the profile with the rule's own
        # verdicts, the duplicates with the users they name); this page only words it
        results = job_results(job=job, with_people=True)
        user = results.user
        images = [
            {"role": role.label, "url": reverse("admin:verification_verificationjob_image", args=[job.pk, role.value])}
            for role, document_id in (
                (ImageRole.ID_FRONT, job.id_front_id),
                (ImageRole.SELFIE, job.selfie_id),
                (ImageRole.ID_BACK, job.id_back_id),
            )
            if document_id
        ]
        duplicates = [
            {
                "type": d.type,
                "score": d.score,
                "detail": d.detail,
                "url": reverse("admin:kyc_platformuser_change", args=[d.user_id]),
                # by name, not by a truncated id; a purged user keeps the id only
                "name": d.user.full_name if d.user is not None else "",
                "phone": d.user.phone_number if d.user is not None else "",
            }
            for d in results.duplicates
        ]
        stages = [
            {
                "stage": s.label,
                "status": "waiting for an officer" if s.awaits_officer else s.status,
                "seconds": s.seconds,
            }
            for s in results.stages
            if s.label is not None
        ]
        may_run = request.user.has_capability("verification.run")
        return {
            "job": job,
            "user": user,
            "user_url": reverse("admin:kyc_platformuser_change", args=[user.pk]) if user is not None else "",
            "images": images,
            "rows": results.comparisons,
            "quality": quality_rows(results.quality),
            "checks": [
                {**c, "label": CHECK_LABELS.get(c["name"], c["name"].replace("_", " ").capitalize())}
                for c in results.checks
            ],
            "duplicates": duplicates,
            "stages": stages,
            "face": results.face.result if results.face is not None else {},
            "can_decide": may_run and job.awaits_review,
            "can_process": may_run and job.status in (JobStatus.PENDING, JobStatus.FAILED),
            "urls": {
                "decide": reverse("admin:verification_verificationjob_decide", args=[job.pk]),
                "process": reverse("admin:verification_verificationjob_process", args=[job.pk]),
            },
        }

    def _job_for(self, request, object_id, capability: str) -> VerificationJob:
        if not self.has_view_permission(request) or not request.user.has_capability(capability):
            raise PermissionDenied
        try:
            return job_get(job_id=object_id)
        except DomainError:
            raise Http404("Job not found") from None

    def _job_action(self, request, object_id, act, **kwargs):
        return object_action(
            self,
            request,
            object_id,
            act,
            back=reverse("admin:verification_verificationjob_change", args=[object_id]),
            lookup=partial(self._job_for, request, object_id, "verification.run"),
            **kwargs,
        )

    def decide_view(self, request, object_id):
        def decide(job):
            job = services.job_decide(
                job=job,
                actor=request.user,
                decision=request.POST.get("decision", ""),
                note=request.POST.get("note", "")[:NOTE_MAX_LENGTH],
            )
            if job.awaits_review:
                return Done(
                    "Approval proposed. This identity may be another user's: a second person must approve it, "
                    "with a reason.",
                    level=messages.WARNING,
                )
            who = job.user.full_name if job.user else "The user"
            return f"Decision recorded: {who} is {'verified' if job.decision == Decision.APPROVED else 'rejected'}."

        return self._job_action(request, object_id, decide, error=_with_reasons)

    def process_view(self, request, object_id):
        def process(job):
            job = services.job_process(job=job, actor=request.user)
            return f"Processed: {job.get_status_display()}, decision {job.decision}."

        return self._job_action(request, object_id, process)

    def image_view(self, request, object_id, role):
        """A thumbnail of one of the job's images, drawn on the server (no raw upload reaches the browser)."""
        job = self._job_for(request, object_id, "verification.read")
        document = {
            ImageRole.ID_FRONT.value: job.id_front,
            ImageRole.ID_BACK.value: job.id_back,
            ImageRole.SELFIE.value: job.selfie,
        }.get(role)
        data = job_image(document)
        if data is None:
            raise Http404("No such image")
        side = THUMBNAIL_SIDE * 3 if request.GET.get("size") == "large" else THUMBNAIL_SIDE
        faces = (job.quality or {}).get(role, {}).get("faces", [])
        try:
            png = framed_thumbnail(data, faces=faces, max_side=side)
        except (DomainError, ValueError, OSError):
            raise Http404("No preview for this image") from None
        response = HttpResponse(png, content_type="image/png")
        response["Cache-Control"] = "private, max-age=300"
        return response


@register_card
def _verification_cards(request) -> list[dict]:
    """Jobs waiting for an officer (the officer's work), and failed runs that want another try."""
    if not request.user.has_capability("verification.read"):
        return []
    counts = job_work_counts()
    url = reverse("admin:verification_verificationjob_changelist")
    cards = [
        {
            "title": "Identity checks to review",
            "value": counts["waiting"],
            "hint": "Verification jobs waiting for a compliance officer",
            "link": url + "?review=waiting",
            "group": "my work",
            "tone": "warning" if counts["waiting"] else "",
        }
    ]
    if counts["failed"]:
        cards.append(
            {
                "title": "Failed identity checks",
                "value": counts["failed"],
                "hint": "A provider error stopped them; run them again from the job page",
                "link": url + f"?status__exact={JobStatus.FAILED}",
                "tone": "danger",
            }
        )
    return cards
