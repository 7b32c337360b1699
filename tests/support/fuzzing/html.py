"""HTML as mail carries it: nested, unclosed, with odd entities and attributes."""

from __future__ import annotations

from hypothesis import strategies as st

from support.fuzzing.text import sentences

TAGS = """p div br li ul ol table tr td th pre b i a font span script style head title
template noscript iframe h1 blockquote hr img svg math select option textarea xmp plaintext
frameset noembed body html""".split()
html_leaves = st.one_of(
    sentences,
    st.sampled_from(
        [
            "&amp;",
            "&nbsp;",
            "&#0;",
            "&#x110000;",
            "&#xD800;",
            "&#99999999;",
            "&lt;script&gt;",
            "&bogus;",
            "&",
            "<!-- x -->",
            "<!--",
            "<![CDATA[x]]>",
            "<?php ?>",
            "</p>",
            "<",
            ">",
            "<!DOCTYPE html>",
            '<a href="javascript:alert(1)">x</a>',
        ]
    ),
    st.builds(
        lambda tag, n: f"<{tag}>" * n,
        st.sampled_from(["b", "i", "div", "table", "a"]),
        st.integers(1, 3000),
    ),
)
attributes = st.sampled_from(
    ["", ' class="x"', " style='display:none'", " a=b c", ' "', ' x="<p>"']
)


def element(tag: str, attrs: str, children: list[str], closed: bool) -> str:
    return f"<{tag}{attrs}>{''.join(children)}{f'</{tag}>' if closed else ''}"


html_texts = st.recursive(
    html_leaves,
    lambda inner: st.builds(
        element, st.sampled_from(TAGS), attributes, st.lists(inner, max_size=4), st.booleans()
    ),
    max_leaves=30,
)
