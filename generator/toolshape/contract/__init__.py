"""Contract loading and checking: YAML with the position of every node (``source``), the
contract check (``checker``), the reference evaluator (``reference``), the problems they
report (``errors``) and how their messages name values (``wording``, shared with the keyword
families' ``rules``).

Hands a checked ``checker.Contract`` to ``codegen``; the reference evaluator is the oracle
``codegen.cases`` and ``review.search`` ask about instances.
"""
