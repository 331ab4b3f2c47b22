"""Game options: every rulebook gap or contradiction the digest names gets a switch with its DEFAULT [digest 9].

The descriptions are read by players: they cite the rulebook's own sections (R ...) only, never the
digest's numbers.  The digest's gap behind each option, for maintainers: players_per_side G-28,
from_cloud G-12, aa_timing G-15, bomb_timing G-16, vp_per_series G-17, one_shot and react_default G-31,
cloud_line and cloud_edge G-13, blocking G-10, zero_strength G-14, alt_change G-22, occupancy G-23,
offboard_roll G-20, return_altitude G-6, collision_vp G-25, jammed_bombing G-34, w5_third_entry G-19,
both_win G-27, stage_limit G-26; visibility and visual_range digest 5.
"""
from __future__ import annotations

from pbem.core.ruleset import Option

OPTIONS: tuple[Option, ...] = (
    Option("visibility", "open", "open: everything is public as in the boxed game; fog: German pilots see "
           "British aircraft only within visual range and not into cloud, the British see all by radar", ("open", "fog")),
    Option("visual_range", 5, "fog: hexes a German aircraft sees around it", (3, 4, 5, 6, 7, 8)),
    Option("players_per_side", 1, "players per side; each commands some aircraft [R 1]", (1, 2, 3, 4)),
    Option("setup", "orders", "orders: a setup phase where each side places its aircraft and AA guns [R 9.3, 6.0]; "
           "auto: the engine places them at once (faster demo)", ("orders", "auto")),
    Option("sun", "die", "sun edge [R 5.0.1, 2.3]: die (1-2 east, 3-4 south, 5-6 west) or an agreed edge",
           ("die", "east", "south", "west", "north")),
    Option("from_cloud", "text", "firing from cloud: text of R 5.0.2 (-1 edge, -2 full) or summary table (-2/-3)",
           ("text", "table")),
    Option("aa_timing", "combat", "AA fire: in the British combat phase [R 6.1] or during German movement "
           "(Phase 1 text) by standing AA orders", ("combat", "movement")),
    Option("bomb_timing", "combat", "bombing: in the German combat phase [R 7.0.3] or while flying over the hex "
           "(Phase 1 text)", ("combat", "movement")),
    Option("vp_per_series", 3, "VP per bomb series on a target: Tables 1/3 (+3) or R 9.2 (2)", (3, 2)),
    Option("one_shot", "shot", "R 5.3.1: one shot per aircraft per stage, or one target per stage "
           "(a second shot only at the same aircraft)", ("shot", "target")),
    Option("react_default", "always", "reactive fire [R 5.3.6] when no REACT order covers an aircraft: always fire, never, "
           "or ask (step mode: an interrupt window asks the owner)", ("always", "never", "ask")),
    Option("cloud_line", "full", "line of fire cut to 1 hex only in full-cloud hexes, or also in cloud-edge hexes",
           ("full", "any")),
    Option("blocking", "same_altitude", "which aircraft block a line of fire: only those at the shooter's "
           "altitude, or any", ("same_altitude", "any")),
    Option("zero_strength", "no_roll", "modified strength 0 [R 5.2, Table 2]: no roll, or roll only for a jam",
           ("no_roll", "jam_roll")),
    Option("alt_change", "first_hex", "an altitude change [R 4.2.3] counts from the first hex entered, or at any hex "
           "written in the path (C or D, e.g. MOVE He111-1 FFDFF)", ("first_hex", "any_hex")),
    Option("cloud_edge", "counts", "a cloud-edge hex counts as cloud for ignoring the sun [R 5.0.3] and the AA "
           "automatic miss [R 6.2.5], or only full-cloud hexes do", ("counts", "full_only")),
    Option("occupancy", "pass_through", "an occupied hex (same altitude) may not be entered at all, or only not "
           "ended in", ("pass_through", "end_hex")),
    Option("offboard_roll", "exit", "German off-board survival roll [R 4.3.2] when leaving, or when returning",
           ("exit", "return")),
    Option("return_altitude", "as_left", "a returning aircraft [R 4.3] comes back at the altitude it left, or the owner's "
           "choice", ("as_left", "owner")),
    Option("collision_vp", "losses_only", "collisions: each side only loses its VP for own losses, or the "
           "opponent also scores them as shot down", ("losses_only", "award")),
    Option("jammed_bombing", "yes", "may an aircraft with jammed guns still bomb", ("yes", "no")),
    Option("w5_third_entry", "A41,B21", "third Hurricane entry hex of Wariant 5 [R 9]: as printed, or read as a typo",
           ("A41,B21", "A41,B47")),
    Option("both_win", "percentage", "both sides reach their minimum: larger percentage wins, or a draw",
           ("percentage", "draw")),
    Option("stage_limit", 0, "end the game after this stage (0: no limit, as in the rules)",
           (0, 12, 20, 28, 40, 56)),
)
