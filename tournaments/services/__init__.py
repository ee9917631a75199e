"""Services: every write Rackscore makes, by subject.

``games`` (record, correct, delete a match's games), ``entries`` (who plays,
who is here), ``rounds`` (seat, re-seat, tables by hand), ``stages``
(semi-finals, final), ``adjustments`` (penalties, bonuses), ``tournaments``
(create, change, delete), ``players`` (players, importing a file) and
``clubs`` (clubs, who organises them, their members).

Each service takes keyword arguments, validates through the rules engine and
the tournament's state, writes inside one transaction, and raises
``scoring.errors.UserError`` (nothing stored) when the input or the state
forbids the write.
"""
