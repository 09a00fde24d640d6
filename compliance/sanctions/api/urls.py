from backoffice.api.routers import ApiRouter
from compliance.sanctions.api.views import SanctionsEntryViewSet, SanctionsListViewSet

router = ApiRouter()
router.register("admin/aml/sanctions/lists", SanctionsListViewSet, basename="sanctions-list")
router.register("admin/aml/sanctions/entries", SanctionsEntryViewSet, basename="sanctions-entry")

urlpatterns = router.urls
