"""The table's store of the person's files: settings, statistics and the saved match."""
