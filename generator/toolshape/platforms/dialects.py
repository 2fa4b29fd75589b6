"""Custom meta-schemas: which vocabularies a ``$schema`` turns on (platforms stage).

A schema's ``$schema`` names its dialect. The standard drafts' URIs name toolshape's own
reading of each draft; any other URI names a custom meta-schema, a document whose
``$vocabulary`` lists the vocabularies the dialect has (2019-09 and 2020-12). ``import`` reads
such a meta-schema where ``--remote`` maps its URL to a local folder (never from the network)
and keeps only the keywords of the vocabularies it lists: the others are unknown keywords in
that dialect, dropped with a warning as JSON Schema ignores them (an annotation of a
vocabulary left out stays: an unknown keyword is an annotation too, and it changes nothing
that passes). A vocabulary listed with
``true`` (required) that toolshape does not know makes the import fail, at the ``$schema``
that names the meta-schema; one listed with ``false`` is ignored, as JSON Schema says. The
core vocabulary is always on (a dialect cannot be without it). A meta-schema naming the
format-assertion vocabulary asserts every ``format``. A keyword of no vocabulary
(``dependencies``, split into two in 2019-09) is in no custom dialect, whatever it lists: only
the draft's own meta-schema keeps it, for compatibility, and the specification and jsonschema
read it as an unknown keyword there too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..schema import vocabulary
from . import remotes

#: The key of a meta-schema that lists its vocabularies.
VOCABULARY_KEY = "$vocabulary"


@dataclass(frozen=True)
class Dialect:
    """What a custom meta-schema turns on."""

    #: The meta-schema's URI (the ``$schema`` that named it, without a fragment).
    uri: str
    #: The draft its own ``$schema`` says it is written in.
    draft: str
    #: The keywords it turns off: the assertions and applicators of the vocabularies it
    #: leaves out.
    off: frozenset[str]
    #: Whether it names the format-assertion vocabulary (every ``format`` asserted).
    asserts_formats: bool


class DialectError(Exception):
    """Why a custom meta-schema cannot be read or used (an error at the ``$schema``)."""


def read_dialect(
    uri: str, folders: tuple[remotes.RemoteFolder, ...], drafts: dict[str, str]
) -> Dialect | None:
    """The dialect of the custom meta-schema ``uri`` read from its mapped folder (None: no
    folder maps it). ``drafts`` maps each standard draft's ``$schema`` marker to the draft's
    name (the importer's own table). DialectError (RemoteError) when it cannot be used."""
    meta_uri = uri.split("#", 1)[0]
    path = remotes.local_file(meta_uri, folders)
    if path is None:
        return None
    document = remotes.read_document(meta_uri, path)
    if not isinstance(document, dict):
        raise DialectError(f"the meta-schema {meta_uri!r} ({path}) is not a JSON object")
    declared = document.get("$schema")
    draft = next(
        (d for marker, d in drafts.items() if isinstance(declared, str) and marker in declared),
        None,
    )
    if draft not in ("2019-09", "2020-12"):
        raise DialectError(
            f"the meta-schema {meta_uri!r} must say '$schema' of draft 2019-09 or 2020-12 "
            f"(the drafts with vocabularies), not {str(declared)[:80]!r}"
        )
    listed = document.get(VOCABULARY_KEY)
    if listed is None:
        # No $vocabulary: the dialect of its own draft, whole.
        return Dialect(meta_uri, draft, frozenset(), False)
    if not isinstance(listed, dict) or not all(isinstance(v, bool) for v in listed.values()):
        raise DialectError(
            f"'{VOCABULARY_KEY}' of the meta-schema {meta_uri!r} must map URIs to true or false"
        )
    return Dialect(
        meta_uri,
        draft,
        vocabulary.outside(_turned_on(meta_uri, listed)),
        vocabulary.FORMAT_ASSERTION in listed,
    )


def why_dropped(name: str, dialect: Dialect) -> str:
    """The warning for the keyword ``name`` that ``dialect`` turns off: the vocabulary its
    ``$vocabulary`` leaves out, or, for a keyword of no vocabulary, that none could turn it on
    (and what replaced it)."""
    keyword = vocabulary.keyword(name)
    if keyword.vocabulary:
        reason = f"its '{VOCABULARY_KEY}' leaves out the vocabulary of it"
    else:
        replaced = " and ".join(f"'{successor}'" for successor in keyword.successor)
        by = f", which replaced it by {replaced}" if replaced else ""
        reason = (
            f"it is in no vocabulary of draft {dialect.draft}{by}; only the draft's own "
            "meta-schema keeps it, for compatibility"
        )
    return (
        f"'{name}' is not a keyword of the dialect of {dialect.uri!r} ({reason}): read as an "
        "unknown keyword, dropped"
    )


def _turned_on(meta_uri: str, listed: dict[str, Any]) -> frozenset[str]:
    """The table's vocabularies ``listed`` turns on, core always; DialectError for a
    required vocabulary toolshape does not know."""
    names: set[str] = {"core"}
    for vocabulary_uri, required in listed.items():
        known = vocabulary.VOCABULARY_URIS.get(vocabulary_uri)
        if known is not None:
            names.update(known)
        elif required:
            raise DialectError(
                f"the meta-schema {meta_uri!r} requires the vocabulary {vocabulary_uri!r} "
                f"(at {meta_uri}#/{VOCABULARY_KEY}), which toolshape does not know: a schema "
                "of this dialect cannot be read as its author means it"
            )
    return frozenset(names)
