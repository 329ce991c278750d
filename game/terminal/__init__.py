"""The terminal harness, ``mdhearts cli``: a match played or scripted from the terminal."""
