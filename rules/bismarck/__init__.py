"""The Chase of the Bismarck (VUCA Simulations, 2022): naval hidden movement, search and shadowing."""
from .ruleset import RULESET

__all__ = ["RULESET"]
