"""Kryptonim: Lew Morski (Battle of Britain hex air combat) for pbem."""
from .ruleset import RULESET

__all__ = ["RULESET"]
