"""HTML mail as text: what a reader sees is kept, attributes and hidden parts never are, and
hostile markup is read in bounded time."""

from __future__ import annotations

import pytest
from support.timing import deadline

from memo_tui.core.email.html import MAX_HTML, MAX_TAGS, html_to_text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ('<a title="a>b" href="x">link</a>', "link"),
        ('<a title=\'say "hi" > there\' href="https://evil.example">link</a>', "link"),
        ('<img alt="a>b" src="http://evil">after', "after"),
        ('<img alt="x" src="http://evil">', ""),
        ('<a href="javascript:alert(1)">click</a>', "click"),
        ("<div data-x='<p>\">' onclick=\"go('http://evil')\">kept</div>", "kept"),
    ],
)
def test_an_attribute_is_never_read_as_text(markup: str, text: str) -> None:
    assert html_to_text(markup) == text


def test_scripts_styles_comments_and_unshown_parts_are_dropped() -> None:
    markup = (
        "<html><head><title>T</title><style>p{color:red}</style></head><body>"
        "<script>if (a<b) document.write('<p>x</p>')</script><!-- a note -->"
        "<noscript>ns</noscript><template>tp</template>"
        "<iframe src=x>fallback <a href='http://evil'>y</a></iframe><p>shown</p></body></html>"
    )
    assert html_to_text(markup) == "shown"


@pytest.mark.parametrize("comment", ["<!-- a note --!>", "<!-->", "<!--->"])
def test_a_comment_ends_where_html_ends_it(comment: str) -> None:
    assert html_to_text(f"before{comment}after") == "beforeafter"


def test_blocks_start_lines_and_list_items_start_with_a_dash() -> None:
    markup = (
        "<div>Agenda<ul><li>pricing</li><li>rollout</ul></div>after<br>one more"
        "<table><tr><td>cell</td></tr></table><h2>Heading</h2>text"
    )
    assert html_to_text(markup) == (
        "Agenda\n\n- pricing\n- rollout\n\nafter\none more\n\ncell\n\nHeading\ntext"
    )


def test_a_line_break_in_the_source_is_a_space_except_in_pre() -> None:
    markup = "<p>We decided\r\nto keep   Cobalt\n\npricing flat.</p><pre>&gt; quoted\nnew</pre>"
    assert html_to_text(markup) == "We decided to keep Cobalt pricing flat.\n\n> quoted\nnew"


def test_at_most_one_blank_line_in_a_row() -> None:
    assert html_to_text("<div><div><p>one</p></div></div><p></p><br><br><p>two</p>") == (
        "one\n\ntwo"
    )


def test_entities_are_decoded() -> None:
    markup = "Caf&eacute; &amp; &lt;b&gt;&nbsp;&nbsp;x &#x41;&#66; &copy"
    assert html_to_text(markup) == "Café & <b> x AB ©"


@pytest.mark.parametrize("text", ["1 < 2 and 3 > 2", "x < y", "I <3 it"])
def test_text_that_only_looks_like_markup_is_kept(text: str) -> None:
    assert html_to_text(f"<p>{text}</p>") == text


def test_input_is_capped() -> None:
    assert html_to_text("a" * MAX_HTML + " tail").endswith("a")
    assert html_to_text("<p>x" * MAX_TAGS + "<p>tail").endswith("x")


N = 100_000
HOSTILE = {
    "unclosed tags": "<a " * 20_000,
    "nested divs": "<div>" * N + "x",
    "nested lists": "<ul><li>" * N + "x",
    "unclosed comment": "<!-- " + "x" * N,
    "a tag never closed": "<p>hi</p><a title='" + "x" * N,
    "formatting elements rebuilt": (
        "<p>" + "".join(f"<b id={i}>" for i in range(N // 20)) + "</p><p>x" * (N // 20)
    ),
    "misnested formatting": (
        "".join(f"<i id={i}>" for i in range(N // 20)) + "<div>x</i>" * (N // 20)
    ),
    "options": "<select>" + "<option>x" * N,
    "nested tables": "<table><tr><td>" * N,
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_markup_is_read_in_bounded_time(case: str) -> None:
    with deadline(10):
        assert isinstance(html_to_text(HOSTILE[case]), str)


@pytest.mark.parametrize(
    "markup", ["", "<", "</", "<!", "&", "\x00", "\udc80", "<![CDATA[x", "<svg><![CDATA[x]]>"]
)
def test_odd_markup_never_raises(markup: str) -> None:
    assert isinstance(html_to_text(markup), str)
