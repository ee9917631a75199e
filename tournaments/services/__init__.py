"""Services: every write Rackscore makes, by subject.

Each service takes keyword arguments, validates through the rules engine and
the tournament's state, writes inside one transaction, and raises
``scoring.errors.UserError`` (nothing stored) when the input or the state
forbids the write.
"""
