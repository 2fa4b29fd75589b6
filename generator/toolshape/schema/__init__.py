"""JSON and JSON Schema helpers every stage shares: the vocabulary table, every keyword and
format toolshape knows (``vocabulary``), JSON values (``values``), local ``$ref`` pointers
(``pointers``), subschema keywords and their walk (``keywords``), strongly connected
components (``graphs``).

The base of the package: it imports nothing else of toolshape, so any stage may import it.
"""
