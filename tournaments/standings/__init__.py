"""Standings: players ranked over a tournament.

``ranking`` is the pure part (rows, tie-breaks, ranks), ``queries`` reads the
database and feeds it.
"""
