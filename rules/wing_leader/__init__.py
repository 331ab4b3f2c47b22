"""Wing Leader (basic game, rules 1-12) on the ruleset kit; not registered until complete (see NOTES.md)."""
from .ruleset import RULESET

__all__ = ["RULESET"]
