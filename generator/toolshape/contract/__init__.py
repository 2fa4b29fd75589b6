"""Contract loading and checking: YAML with the position of every node (``source``), the
contract check (``checker``), the reference evaluator (``reference``) and the problems they
report (``errors``).

Hands a checked ``checker.Contract`` to ``codegen``; the reference evaluator is the oracle
``codegen.cases`` and ``review.search`` ask about instances.
"""
