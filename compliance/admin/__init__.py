import compliance.admin.alerts  # noqa: F401
import compliance.admin.rules  # noqa: F401
