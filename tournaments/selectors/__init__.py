"""Selectors: every read a page, the API, a PDF or a command needs, planned,
by subject. Each selector runs a fixed number of queries, whatever the size of
the tournament; import them from their modules:

- ``tournaments``: tournaments by slug or id, the ones a user may see or organises.
- ``rounds``: a tournament's rounds as lines or with their tables, byes and
  games; the seating history and its quality.
- ``matches``: one match with its seats and games; the match a replaced link was.
- ``entries``: the players entered in a tournament, and its adjustments.
- ``people``: players, clubs and user accounts as a user may see and pick them.
- ``clubs``: a club's page (the club shown, its members, events, invitations, trail).
- ``audit``: the audit trail, a match's game history, deletions to restore.
- ``progress``: what the desk's next step is decided from.
- ``visible``: what an API request may read (its user's tournaments, a match grant).
- ``pages``: what the public pages read.
- ``standings``, ``standings_rows``, ``standings_by_game``: the current ranking and its rows.
- ``unconfirmed``, ``unsettled``: games not confirmed yet, for the standings and the desk.
- ``hall``: the hall's current round, its clock and find-my-table.
- ``player_games``: a player's record over the public tournaments.
- ``player_stats``: a player's statistics over the games a viewer may see.
- ``print_data``: what the printed sheets and standings read.
- ``statement_rows``: model instances from a hand-written statement's columns,
  for the reads on the recording path (the token's read, the tournament's row).
"""
