"""Reads of the sanctions lists beyond a filter: the lists' summaries, entries with their history, the
revision a name index polls."""
