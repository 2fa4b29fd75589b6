"""JSON and JSON Schema helpers every stage shares: local ``$ref`` pointers (``pointers``).

The base of the package: it imports nothing else of toolshape, so any stage may import it.
"""
