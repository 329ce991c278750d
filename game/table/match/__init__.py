"""A match as the table plays it: the interface a table needs (``port``), the local match
behind it, and the bookkeeping and flow around it, none of which draws or imports pygame."""
