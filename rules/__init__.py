"""Rulesets hosted by pbem: one package each, listed by hand in RULESETS."""
