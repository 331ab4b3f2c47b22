"""Club play (issue 20): players as keys (:mod:`.players`), results proven by the journals (:mod:`.results`),
ratings anyone can recompute (:mod:`.ratings`) and reliability from the record (:mod:`.reliability`)."""
