"""Reviewing a contract change: ``toolshape diff`` (``diff``) says what a change does to
callers, with witness arguments checked against the generated validators of both sides.

A side road: it runs the other stages on two versions of a contract; nothing depends on it.
"""
