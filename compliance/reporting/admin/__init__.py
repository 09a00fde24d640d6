from compliance.reporting.admin import threshold  # noqa: F401 - registers the pages
