from django.urls import path

from backoffice.api.routers import ApiRouter
from kyc.api.views import CreditRequestViewSet, UserLoginView, UserRegisterView, UserViewSet

router = ApiRouter()
# before the users: "credit-requests" must not be read as a user id
router.register("admin/users/credit-requests", CreditRequestViewSet, basename="credit-requests")
router.register("admin/users", UserViewSet, basename="admin-users")

urlpatterns = [
    path("auth/user/register", UserRegisterView.as_view(), name="auth-user-register"),
    path("auth/user/login", UserLoginView.as_view(), name="auth-user-login"),
    *router.urls,
]
