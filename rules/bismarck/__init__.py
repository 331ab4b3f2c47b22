"""The Chase of the Bismarck (VUCA Simulations, 2022): naval hidden movement, search and shadowing."""
from .ruleset import BismarckRuleset

RULESET = BismarckRuleset()

__all__ = ["RULESET"]
