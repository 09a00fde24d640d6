"""What every list shares (API, admin, commands): the filterset base (sorting whitelist, date range,
strict booleans) and the paging (cheap totals, fast deep pages)."""
