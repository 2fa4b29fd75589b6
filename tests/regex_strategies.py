"""A hypothesis strategy for ECMA-262 patterns, built as a syntax tree and written out as text.

The alphabet is small (a, b, c and classes over them, plus '.', '\\d', negated classes) so a brute
force over short strings of a few characters can check what the witness search claims.
"""

from __future__ import annotations

from hypothesis import strategies as st

ATOMS = ["a", "b", "c", "[ab]", "[^a]", "[a-c]", ".", "\\d", "b|c"]


def patterns(
    *, lookarounds: bool = True, backreferences: bool = True, anchors: bool = True
) -> st.SearchStrategy[str]:
    """Pattern text: sequences, alternations, groups and quantifiers over ATOMS, optionally with
    anchors, lookaheads and a backreference to the first group."""

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        quantified = st.tuples(
            inner, st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "{0,2}", "*?"])
        ).map(lambda pair: f"(?:{pair[0]}){pair[1]}")
        options = [
            quantified,
            st.lists(inner, min_size=2, max_size=3).map("".join),
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
            inner.map(lambda x: f"({x})"),
        ]
        if lookarounds:
            options.append(
                st.tuples(st.sampled_from(["?=", "?!"]), inner).map(
                    lambda pair: f"({pair[0]}{pair[1]})"
                )
            )
        return st.one_of(*options)

    leaves = st.sampled_from([atom if "|" not in atom else f"(?:{atom})" for atom in ATOMS])
    body = st.recursive(leaves, extend, max_leaves=6)

    @st.composite
    def whole(draw: st.DrawFn) -> str:
        text = draw(body)
        if backreferences and text.count("(") > text.count("(?") and draw(st.booleans()):
            text += "\\1"
        if anchors and draw(st.booleans()):
            text = "^" + text
        if anchors and draw(st.booleans()):
            text += "$"
        return text

    return whole()
