from compliance.services.sar import (  # noqa: F401
    sar_create,
    sar_transition,
)
