from compliance.selectors.sar import (  # noqa: F401
    sar_available_moves,
    sar_get,
    sar_list,
    user_under_sar_retention,
)
