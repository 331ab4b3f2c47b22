"""The engine as small services over one database, each with its dependencies given explicitly.

    deps        Deps: the home, the database (a session factory), the clock, the ruleset registry, the key
    states      StateCache: a game's ruleset and state, and a seat's view, cached by journal head
    records     the game record: look-ups, journal entries, entering a phase
    outbox      OutboxService: queue, compose and sign, settle rows; notices to the GM
    sitreps     SitrepService: a seat's view -> rendered parts, queued in the outbox
    resolution  ResolutionService: due phases -> journal entries and sitreps
    intake      IntakeService: a batch of raw messages -> verdicts and stored writes
    lifecycle   GameLifecycle: new game, add player, start
    deadlines   Deadlines: due games, next deadline, reminders
    queries     Queries: what the CLI shows

Imports go one way: ``pbem.core`` <- rulesets <- these services <- daemon and CLI.  How a game's
phase and an outbox row are claimed among several daemons is :mod:`pbem.store.claim`'s alone.
"""
