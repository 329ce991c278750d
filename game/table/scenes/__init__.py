"""The table's screens: title menu, table, summaries, settings, statistics and help."""
