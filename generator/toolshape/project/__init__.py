"""Contracts to files: one contract through every stage, in memory (``pipeline``), and a folder
of contracts planned, written atomically and checked for staleness (``folder``).

The last stage of generation; ``cli`` calls it.
"""
