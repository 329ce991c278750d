"""The engine-protocol server, ``mdhearts engine``: bots answering other programs' requests."""
