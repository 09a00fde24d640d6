"""/api/v1: the foundation's own endpoints, then each domain app's ``<app>/api/urls.py`` in dependency order."""

from django.conf import settings
from django.urls import include, path

from backoffice.api import auth_views
from backoffice.api.audit_views import AuditLogViewSet
from backoffice.api.operations import ReadinessView
from backoffice.api.routers import ApiRouter
from backoffice.api.views import FileDownloadView, HealthView, StaffMeView
from backoffice.api.webhook_views import WebhookViewSet

auth_patterns = [
    path("admin/login", auth_views.AdminLoginView.as_view(), name="auth-admin-login"),
    path("refresh", auth_views.RefreshView.as_view(), name="auth-refresh"),
    path("logout", auth_views.LogoutView.as_view(), name="auth-logout"),
    path("otp/verify", auth_views.OtpVerifyView.as_view(), name="auth-otp-verify"),
    path("otp/resend", auth_views.OtpResendView.as_view(), name="auth-otp-resend"),
]

router = ApiRouter()
router.register("admin/audit-logs", AuditLogViewSet, basename="audit-logs")
router.register("admin/webhooks", WebhookViewSet, basename="webhooks")

urlpatterns = [
    path("health", HealthView.as_view(), name="health"),
    path("health/ready", ReadinessView.as_view(), name="health-ready"),
    path("files/<str:token>", FileDownloadView.as_view(), name="file-download"),
    path("auth/", include(auth_patterns)),
    path("admin/me", StaffMeView.as_view(), name="admin-me"),
    *router.urls,
    *(path("", include(f"{app}.api.urls")) for app in settings.DOMAIN_APPS if app != "backoffice"),
]
