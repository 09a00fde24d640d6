from backoffice.api.routers import ApiRouter
from verification.api.views import VerificationViewSet

router = ApiRouter()
router.register("verification", VerificationViewSet, basename="verification")

urlpatterns = router.urls
