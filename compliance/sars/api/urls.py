from backoffice.api.routers import ApiRouter
from compliance.sars.api.views.sar import SARCaseWorkViewSet, SARViewSet

router = ApiRouter()
router.register("admin/aml/sars", SARViewSet, basename="sar")
router.register("admin/aml/sars", SARCaseWorkViewSet, basename="sar-casework")

urlpatterns = router.urls
