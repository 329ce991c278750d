"""The pygame table: the window, its screens, the cards drawn and animated, sounds and bots."""
