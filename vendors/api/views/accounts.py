"""/auth/vendor/...: the vendor's kind of the shared register and login views."""

from drf_spectacular.utils import extend_schema, extend_schema_view

from backoffice.api.auth_views import PrincipalLoginView, PrincipalRegisterView
from vendors import services
from vendors.api.serializers import accounts as s


@extend_schema_view(
    post=extend_schema(request=s.VendorRegisterIn, responses={201: s.VendorRegisteredOut}, summary="Register a vendor")
)
class VendorRegisterView(PrincipalRegisterView):
    input_serializer = s.VendorRegisterIn
    output_serializer = s.VendorRegisteredOut
    register = staticmethod(services.vendor_register)
    message = "Vendor registered"


@extend_schema_view(
    post=extend_schema(request=s.VendorLoginIn, responses={200: s.VendorLoginOut}, summary="Vendor login")
)
class VendorLoginView(PrincipalLoginView):
    kind = services.KIND
    input_serializer = s.VendorLoginIn
    output_serializer = s.VendorLoginOut
    principal_key = "vendor"
