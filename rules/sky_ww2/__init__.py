"""Sky of WWII (Небо второй мировой): card-driven air combat with hidden hands."""
from .ruleset import RULESET

__all__ = ["RULESET"]
