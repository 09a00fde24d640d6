from django.urls import path

from backoffice.api.routers import ApiRouter
from kyc.api.views import UserLoginView, UserRegisterView, UserViewSet

router = ApiRouter()
router.register("admin/users", UserViewSet, basename="admin-users")

urlpatterns = [
    path("auth/user/register", UserRegisterView.as_view(), name="auth-user-register"),
    path("auth/user/login", UserLoginView.as_view(), name="auth-user-login"),
    *router.urls,
]
