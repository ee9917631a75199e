"""Ratings, pure: the Plackett–Luce update of one game and the replay of many.

Takes and returns plain data (no Django); ``services.ratings`` stores what it
computes and ``selectors.ratings`` reads it back (design §6).
"""
