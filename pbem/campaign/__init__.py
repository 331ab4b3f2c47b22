"""Campaigns: linked games whose losses, veterans and victory points carry over, committed in the hash chain.

A campaign is a graph of scenario slots (:mod:`.definition`); the edge taken after a game depends on the
outcome level the reference side reached (:mod:`.levels`).  Between games the campaign's standing
(:mod:`.standing`: per-side rosters of named units, replacement points, campaign VP, flags) takes the game's
result (:mod:`.carry`), then the players' signed administrative orders (:mod:`.admin`: RECOVER, REPLACE,
PROMOTE, CHOOSE), confirmed by the GM.  Each next game's set-up entry commits to the previous game's
journal head and to the hash of what was carried over, signed by the server (:mod:`.chain`); ``pbem campaign
replay`` checks every game and every carry-over (:mod:`.service`).

What a ruleset must give to take part is its ``Carryover`` (see "Campaigns" in :mod:`pbem.core.ruleset`).
"""
