from compliance.reporting.models.threshold import (
    ThresholdReport,
    ThresholdReportBatch,
    ThresholdReportBatchEvent,
    ThresholdReportEvent,
    ThresholdReportFiling,
)

__all__ = [
    "ThresholdReport",
    "ThresholdReportBatch",
    "ThresholdReportBatchEvent",
    "ThresholdReportEvent",
    "ThresholdReportFiling",
]
