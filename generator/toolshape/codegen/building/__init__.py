"""The model builder: a checked contract's schemas turned into the model's parts, one module per kind.

``context.py`` holds what every kind shares while one contract is built (the namer, the
module's constants and functions, messages, the secret schemas); ``nodes.py`` applies one
schema to one value and hands each JSON type's keywords to their kind: ``strings.py``,
``counts.py`` (the length and size bounds), ``values.py`` (enum, const),
``applicators.py`` (subschemas on the same value) and
``functions.py`` ($ref targets and branches checked in functions of their own). Each kind
matches its macro in ``templates/checks.py.j2``. The checks of a keyword family live in the
family (``families/numbers/checks.py``: the bounds and multipleOf of a number;
``families/arrays/checks.py``: an array's items, contains and uniqueness;
``families/objects/checks.py``: an object's properties and keys).
"""
