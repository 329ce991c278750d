"""The table's screen in parts: the person's controls and keys, and the painter."""
