"""``mdhearts serve``: tables over WebSocket for players, spectators and bots (``docs/network.md``).

It imports only ``core``, ``ai``, the standard library and ``websockets``: never the pygame
table.
"""
