"""`pbem web`: read-only pages beside the mail (see app.py), and the capability links sitreps carry (links.py)."""
