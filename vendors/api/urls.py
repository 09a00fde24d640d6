from django.urls import path

from vendors.api.views import VendorLoginView, VendorRegisterView

urlpatterns = [
    path("auth/vendor/register", VendorRegisterView.as_view(), name="auth-vendor-register"),
    path("auth/vendor/login", VendorLoginView.as_view(), name="auth-vendor-login"),
]
