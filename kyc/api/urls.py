from backoffice.api.routers import ApiRouter
from kyc.api.views import UserViewSet

router = ApiRouter()
router.register("admin/users", UserViewSet, basename="admin-users")

urlpatterns = router.urls
