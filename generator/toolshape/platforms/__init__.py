"""Other tool formats: contracts exported as platform tool definitions (``export``), and
existing JSON Schemas and tool lists imported as contracts (``importer``); ``lowering`` is
what a keyword family's ``export.lower`` gets from the exporter.

A side road: it reads checked contracts and writes contract YAML. Generation uses one thing
of it (project/ takes the package's tool lists from ``export``) and it imports nothing of project/.
"""
