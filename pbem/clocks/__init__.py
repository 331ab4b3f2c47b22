"""Clocks a correspondence game runs on, beyond one fixed window per phase (issue 21).

:mod:`pbem.clocks.bank` is pure time arithmetic: a time bank's spec, rest days, how much of a seat's
time ran between two instants, and when its bank runs out.  :mod:`pbem.clocks.seats` applies it to a
game's seats in the database: a phase starts each seat's clock and ends by settling it, seats nobody
plays are played by the ruleset's scripted player, and every change is in the journal.
"""
