"""Jinja templates for replies and sitreps (data of the pbem package)."""
