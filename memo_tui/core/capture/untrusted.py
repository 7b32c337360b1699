"""Transcripts are untrusted: defusing fence tags, and spotting text addressed to a model.

Both extractors use this. The LLM path fences the transcript and must stop the text from
closing that fence, however the tag is disguised (case, spacing, invisible or full-width
characters, HTML entities, look-alike letters). The offline path never extracts from a turn
that talks to an AI ("ignore previous instructions", fake system prompts, spoofed tool output,
a "System:" speaker): such a turn was pasted or read out; the meeting did not decide it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memo_tui.core.capture.sources import Transcript

# Characters that start a tag once folded: "<", its full-width and small forms, an HTML
# entity for it, the Unicode tag character that smuggles it, and "‹" (a tag already defused).
_OPENER = re.compile(r"<|\uff1c|\ufe64|\u2039|\U000e003c|&(?:lt|#0*60|#x0*3c);?", re.IGNORECASE)
_TAG_CHARS = {code: code - 0xE0000 for code in range(0xE0020, 0xE007F)}
_LOOKALIKES = str.maketrans(
    {
        "\u0430": "a",
        "\u0435": "e",
        "\u043e": "o",
        "\u0440": "p",
        "\u0441": "c",
        "\u0456": "i",
        "\u0455": "s",
        "\u0442": "t",
        "\u03b1": "a",
        "\u03bf": "o",
        "\u03c1": "p",
        "\u03b9": "i",
        "\u03c4": "t",
        "\u2215": "/",
        "\u2044": "/",
        "\uff0f": "/",
        "\\": "/",
    }
)
_TAG_NAME = re.compile(r"/*transcript", re.IGNORECASE)


def _fold(window: str) -> str:
    """What a reader (or a model) would see: entities decoded, width and look-alikes folded,
    invisible characters and spaces gone."""
    text = unicodedata.normalize("NFKC", html.unescape(window.translate(_TAG_CHARS)))
    text = text.translate(_LOOKALIKES)
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) != "Cf")


def _fence_openers(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in _OPENER.finditer(text):
        if _TAG_NAME.match(_fold(text[match.end() : match.end() + 80])):
            spans.append(match.span())
    return spans


def strip_invisible(text: str) -> str:
    """Drop characters nobody can see (format controls, Unicode tag characters): they only
    serve to smuggle text past a reader."""
    if text.isascii():  # every format control lies outside ASCII
        return text
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def neutralize(text: str) -> str:
    """`</transcript>` in any disguise becomes `‹/transcript>`, which closes nothing."""
    text = strip_invisible(text)
    pieces, last = [], 0
    for start, end in _fence_openers(text):
        pieces += [text[last:start], "\u2039"]
        last = end
    return "".join(pieces) + text[last:]


_MODEL_SPEAKERS = frozenset({"system", "assistant", "human", "user", "ai", "model", "bot"})
_TO_A_MODEL = re.compile(
    "|".join(
        [
            r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|prompts?|"
            r"your rules|the above)\b|\bdisregard (?:everything|all|anything)\b",
            r"\bsystem (?:prompt|override|instruction)s?\b|\bsystem message\s*:|\[\s*system\b|"
            r"<\|im_start\|>|###\s*instruction|\[/?INST\]|^\W*(?:system|assistant)\s*:|"
            r"<\s*/?\s*(?:system|assistant|instructions?)\s*>",
            r"\byou are (?:now )?(?:an? |the )?(?:ai|assistant|language model|model|chatbot|"
            r"unfiltered|\w+bot)\b|\bpretend (?:to be|you are|that you)\b|\bas an ai\b",
            r"\b(?:note|message|instructions?|reminder) (?:to|for) the (?:ai|assistant|model|"
            r"summari[sz]er|bot|note-?taker|extractor)\b|\bdear (?:ai|assistant|model|bot)\b",
            r"\bassign (?:every|all|each)\b|\bowner of (?:all|every)\b|"
            r"\bchange the (?:assignee|owner)s?\b",
            r"<\s*/?\s*tool_(?:use|call)|\"(?:decisions|action_items|tool_calls?)\"\s*:|"
            r"\bfunction_call\b",
        ]
    ),
    re.IGNORECASE,
)


def addresses_a_model(text: str, speaker: str | None = None) -> bool:
    """Whether a turn is an instruction to an AI, a fence break or a quoted/pasted block."""
    if speaker is not None and speaker.lower().split()[-1] in _MODEL_SPEAKERS:
        return True
    if text.lstrip().startswith(">") or _fence_openers(text):
        return True
    return bool(_TO_A_MODEL.search(_fold_light(text)))


def _fold_light(text: str) -> str:
    return unicodedata.normalize("NFKC", strip_invisible(text)).translate(_LOOKALIKES)


# What no one says aloud: terminal controls (an escape sequence, or a carriage return or
# backspace that makes a terminal show other words than the line holds), and console or
# HTML markup (text pasted from a tool, or read out of one).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u240d]")  # (␍: a lone CR, decode's)
_MARKUP = re.compile(
    r"\[/?(?:bold|italic|underline|strike|dim|blink|reverse|link|color|"
    r"(?:bright_)?(?:red|green|blue|yellow|magenta|cyan|white|black))\b[^\]\n]{0,40}\]|"
    r"</?(?:b|strong|i|em|u|s|span|font|mark|script|style|div|p|a)\b[^<>\n]{0,120}>",
    re.I,
)


def forged(text: str) -> bool:
    """Whether a turn holds terminal controls or markup: words made to look like something
    else on screen, or pasted from a tool, never the meeting's own call or task."""
    return bool(_CONTROLS.search(text) or _MARKUP.search(text))


# "it says", "the comment reads:", "let me read it out", "quote": what follows is someone
# else's words, read out, not the speaker's call.
_REPORTING = re.compile(
    r"(?:\b(?:it|this|that|the \w+|his|her|their|which|someone|somebody)\s+"
    r"(?:says?|said|reads?|writes?|wrote|posted|put)(?:\s+(?:here|that|out|in \w+))?|"
    r"\bread(?:ing)? (?:it|this|that|the \w+|\w+'s \w+) out|\bread(?:ing)? out|"
    r"\b(?:quote|quoting|in quotes)\b)\s*[:,\u2014-]?\s*$",
    re.I,
)
_LABEL = re.compile(
    r"\b(?:decision|decided|agreed|resolved|action(?: item)?|todo|next steps?)\s*:", re.I
)


def read_out(before: str, sentence: str) -> bool:
    """Whether a sentence's "Decision:" / "Action:" label is read out of something else:
    the words just before the label (in the sentence, or the text `before` it) report
    what a document, a comment or someone says."""
    label = _LABEL.search(sentence)
    if label is None:
        return False
    lead = f"{before} {sentence[: label.start()]}".rstrip()[-120:]
    return bool(_REPORTING.search(lead) or _REPORTING.search(lead.rstrip(".")))


def not_the_meetings(transcript: Transcript, index: int) -> bool:
    """Whether a turn holds nothing the meeting said or wrote as its own: instructions to
    an AI, pasted or read out; a guest's or a tool's post ("Decision: …" typed by a guest
    or a note-taker decides nothing until someone takes it up); words disguised with
    terminal controls or markup; a line read out of something else ("it says:" just
    before it)."""
    turn = transcript.turns[index]
    before = transcript.turns[index - 1].text if index and turn.speaker is None else ""
    return (
        addresses_a_model(turn.text, turn.speaker)
        or turn.speaker in transcript.guests
        or (turn.speaker or "").casefold().startswith("guest")
        or turn.speaker in transcript.bots
        or forged(turn.text)
        or (bool(before) and read_out(before, turn.text))
    )
