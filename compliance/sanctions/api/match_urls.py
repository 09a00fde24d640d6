"""Sanctions screening's routes: screening a name, and the match queue."""

from backoffice.api.routers import ApiRouter
from compliance.sanctions.api.match_views import SanctionsMatchViewSet, SanctionsScreenViewSet

router = ApiRouter()
router.register("admin/aml/sanctions/matches", SanctionsMatchViewSet, basename="sanctions-match")
router.register("admin/aml/sanctions/screen", SanctionsScreenViewSet, basename="sanctions-screen")

urlpatterns = router.urls
