from django.urls import include, path

from backoffice.api import auth_views
from backoffice.api.views import FileDownloadView, HealthView, StaffMeView

auth_patterns = [
    path("admin/login", auth_views.AdminLoginView.as_view(), name="auth-admin-login"),
    path("refresh", auth_views.RefreshView.as_view(), name="auth-refresh"),
    path("logout", auth_views.LogoutView.as_view(), name="auth-logout"),
    path("user/register", auth_views.UserRegisterView.as_view(), name="auth-user-register"),
    path("user/login", auth_views.UserLoginView.as_view(), name="auth-user-login"),
    path("vendor/register", auth_views.VendorRegisterView.as_view(), name="auth-vendor-register"),
    path("vendor/login", auth_views.VendorLoginView.as_view(), name="auth-vendor-login"),
    path("otp/verify", auth_views.OtpVerifyView.as_view(), name="auth-otp-verify"),
    path("otp/resend", auth_views.OtpResendView.as_view(), name="auth-otp-resend"),
]

urlpatterns = [
    path("health", HealthView.as_view(), name="health"),
    path("files/<str:token>", FileDownloadView.as_view(), name="file-download"),
    path("auth/", include(auth_patterns)),
    path("admin/me", StaffMeView.as_view(), name="admin-me"),
    path("", include("kyc.api.urls")),
    path("", include("compliance.api.urls")),
    path("", include("verification.api.urls")),
    path("", include("vendors.api.urls")),
]
