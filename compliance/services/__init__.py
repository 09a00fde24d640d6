import compliance.services.alerts  # noqa: F401
import compliance.services.rules  # noqa: F401
