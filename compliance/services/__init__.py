import compliance.services.alerts  # noqa: F401
import compliance.services.rules  # noqa: F401
from compliance.services.sar import (  # noqa: F401
    sar_create,
    sar_export,
    sar_transition,
)
