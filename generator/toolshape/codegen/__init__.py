"""From a checked contract to formatted code: the intermediate model (``model``, ``names``,
``literals``), the test cases derived from the contract (``cases``), and rendering through the
templates (``render``) laid out as black would (``layout``, ``formatting``).

Hands source text to ``project``, which seals and writes it.
"""
