from rest_framework.exceptions import MethodNotAllowed


class RoutedMethodsOnly:
    """A method the route does not serve is a 405, not a 403 from the role check that runs first."""

    def check_permissions(self, request):
        if request.method.lower() not in (getattr(self, "action_map", None) or {}) and request.method != "OPTIONS":
            raise MethodNotAllowed(request.method)
        super().check_permissions(request)
