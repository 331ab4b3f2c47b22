"""Notices that fit real lives (issue 21): each player chooses how the server tells them of their games.

``PROFILE pref notices phase`` (the default) mails a sitrep every phase; ``digest`` mails one a day at the
player's local ``digest_hour`` (:mod:`.digest`); ``alarm 25`` adds a mail when a quarter of the player's
time is left and no orders have come (:mod:`.alarms`); ``webhook <url> [discord|slack|matrix|json]`` posts
"your move" to a chat (:mod:`.webhooks`).  Sitreps are stored and replayable whatever the player chose.
"""
