"""Witnesses: values built to satisfy (or narrowly miss) a schema, for the derived test cases."""
