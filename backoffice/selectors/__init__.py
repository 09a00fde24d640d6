"""The foundation's reads that are more than a filter."""
