"""Mail at the edge: reading what players send, composing what the server sends, delivering it."""
