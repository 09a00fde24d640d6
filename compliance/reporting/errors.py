from backoffice.errors import Conflict


class NothingToReport(Conflict):
    """A batch gathers PENDING and REJECTED threshold reports; with none, there is nothing to prepare."""

    code = "NOTHING_TO_REPORT"
    default_message = "No threshold report is waiting to be filed"
