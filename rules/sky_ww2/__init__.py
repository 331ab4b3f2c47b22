"""Sky of WWII (Небо второй мировой): card-driven air combat with hidden hands."""
from .ruleset import SkyRuleset

RULESET = SkyRuleset()

__all__ = ["RULESET"]
