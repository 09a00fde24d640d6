from compliance.reporting.models.threshold import ThresholdReport, ThresholdReportBatch, ThresholdReportFiling

__all__ = ["ThresholdReport", "ThresholdReportBatch", "ThresholdReportFiling"]
