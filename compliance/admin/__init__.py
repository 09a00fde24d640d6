import compliance.admin.alerts  # noqa: F401
import compliance.admin.pep  # noqa: F401
import compliance.admin.rules  # noqa: F401
from compliance.admin import sar  # noqa: F401
