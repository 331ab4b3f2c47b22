"""pbem: a play-by-email turn processor for wargames."""
