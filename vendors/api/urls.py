from django.urls import path

from backoffice.api.routers import ApiRouter
from vendors.api.views.accounts import VendorLoginView, VendorRegisterView
from vendors.api.views.kyc import VendorViewSet

router = ApiRouter()
router.register("admin/vendors", VendorViewSet, basename="admin-vendors")

urlpatterns = [
    path("auth/vendor/register", VendorRegisterView.as_view(), name="auth-vendor-register"),
    path("auth/vendor/login", VendorLoginView.as_view(), name="auth-vendor-login"),
    *router.urls,
]
