"""The pure core of pbem: the ruleset contract, dice, order files and errors.

Nothing in this package (nor in any ruleset) may do I/O, read the clock, log,
or import the edge libraries (database, mail, templates, crypto, CLI); a test
enforces it.  The edges call inward with values and get values back.
"""
