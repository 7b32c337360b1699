"""Transcripts as the exports write them (WebVTT and SubRip cues, the line-a-turn exports,
notes), then mangled and encoded as they may reach memo."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from support.fuzzing.text import lines_of, names, rarely, sentences, sprinkled

# ---- subtitle cues: WebVTT and SubRip ---------------------------------------------------


@st.composite
def stamps(draw: st.DrawFn, comma: bool = False) -> str:
    """A cue's time as exports write it, or as a broken export might."""
    h, m, s, ms = (draw(st.integers(0, 99)) for _ in range(4))
    dot = "," if comma else "."
    if not rarely(draw):
        return f"{h:02}:{m:02}:{s:02}{dot}{ms:03}"
    return draw(
        st.sampled_from(
            [
                f"{h:02}:{m:02}:{s:02}{dot}{ms:03}",
                f"{m:02}:{s:02}{dot}{ms:03}",
                f"{h}:{m}:{s}{dot}{ms}",
                f"{draw(st.integers(0, 10**30))}:{m:02}:{s:02}{dot}000",
                f"{h:02}:{m:02}:{s:02}",
                f"{h:02}:{m:02}:0x{dot}000",
                f"-{h:02}:{m:02}:{s:02}{dot}000",
                f"{h:02}:{m:02}:{s:02}{dot}{ms:07}",
                "٠٠:٠٠:٠١.٠٠٠",
                "\u200b00:00:01.000",
                "",
            ]
        )
    )


@st.composite
def timing_lines(draw: st.DrawFn, comma: bool = False) -> str:
    if not rarely(draw):
        arrow, space, cue_settings = "-->", " ", ""
    else:
        arrow = draw(st.sampled_from(["-->", "->", "—>", "-- >", "--->", "→"]))
        space = draw(st.sampled_from([" ", "", "  ", "\t"]))
        cue_settings = draw(st.sampled_from(["", " align:start position:10%", " x", " a:b" * 40]))
    start, end = draw(stamps(comma)), draw(stamps(comma))
    return f"{start}{space}{arrow}{space}{end}{cue_settings}"


cue_ids = st.one_of(
    st.none(),
    st.integers(-5, 10**20).map(str),
    st.builds(lambda u, a, b: f"{u}/{a}-{b}", st.uuids(), st.integers(0, 99), st.integers(0, 9)),
    st.sampled_from(["intro", "chapter-2", "NOTE", "WEBVTT", "-->", " "]),
)
cue_lines = lines_of(
    [
        "<v {n}>{s}</v>",
        "<v {n}>{s}",
        "<v.loud {n}>{s}</v>",
        "<v {n}>{s}</v> <v {n}>{s}</v>",
        "{n}: {s}",
        "[{n}] {s}",
        ">> {N}: {s}",
        "- {n}: {s}",
        "<c.yellow>{s}</c>",
        "<00:00:01.000>{s}",
        "{s}",
        "",
        " ",
        "&lt;v {n}&gt;{s}",
        "[inaudible] {s}",
        "{n} joined the meeting",
        "{n} started transcription",
        "<b><i>{s}</b>",
        "{\\an8}{s}",
        "<v>{s}</v>",
        "<v {n}",
        "</v>",
    ]
)


@st.composite
def cues(draw: st.DrawFn, comma: bool = False, number: int | None = None) -> str:
    cue_id = str(number) if number is not None and draw(st.booleans()) else draw(cue_ids)
    said = draw(st.lists(cue_lines, max_size=4))
    return "\n".join([*([cue_id] if cue_id is not None else []), draw(timing_lines(comma)), *said])


gaps = st.sampled_from(["\n\n", "\n\n", "\n", "\n\n\n", "\n \n", "\n\t\n"])
VTT_HEADS = [
    "WEBVTT",
    "WEBVTT - Q2 planning",
    "WEBVTT\nKind: captions\nLanguage: en",
    "",
    "webvtt",
    "WEBVTT FILE",
    'NOTE duration:"00:10:17"',
    "WEBVTT\n\nNOTE a note\nover two lines",
    "WEBVTT\n\nSTYLE\n::cue { color: red }",
]


@st.composite
def vtt_texts(draw: st.DrawFn) -> str:
    parts = [draw(st.sampled_from(VTT_HEADS)), *draw(st.lists(cues(), max_size=10))]
    return "".join(part + draw(gaps) for part in parts)


@st.composite
def srt_texts(draw: st.DrawFn) -> str:
    count = draw(st.integers(0, 10))
    return "".join(draw(cues(comma=True, number=n)) + draw(gaps) for n in range(1, count + 1))


# ---- the line-a-turn exports and notes --------------------------------------------------

clock = st.builds(
    lambda h, m, s: f"{h:02}:{m:02}:{s:02}",
    st.integers(0, 99),
    st.integers(0, 99),
    st.integers(0, 99),
)
short_time = st.builds(lambda m, s: f"{m}:{s:02}", st.integers(0, 999), st.integers(0, 99))
otter_turns = st.builds(
    lambda name, gap, time, said: f"{name}{gap}{time}\n{said}\n",
    names,
    st.sampled_from(["  ", "   ", " ", "\t"]),
    st.one_of(short_time, clock),
    sentences,
)
OTTER_HEADS = [
    "CAB debrief - spring cohort\nThu, Mar 12, 2026 3:04PM • 1:09:27\n",
    "SUMMARY KEYWORDS\npricing, api\n\nSPEAKERS\nAnna, Raj, Speaker 2\n",
    "Review-20260324_100317-Meeting Recording\nMarch 24, 2026, 10:03AM\n38m 51s\n",
    "",
]
OTTER_FEET = ["", "Transcribed by https://otter.ai", "Transcribed by Otter"]
meet_lines = st.one_of(lines_of(["{n}: {s}", "{s}", "  ", "{n}:{s}"]), clock)
MEET_HEADS = [
    "Hiring plan sync - Transcript\nMar 3, 2026\nAttendees\nAnna, Raj\nTranscript\n00:00:00\n \n",
    "\U0001f4d6 Transcript\n",
    "x - Transcript\n",
    "",
]
MEET_FEET = [
    "",
    "Meeting ended after 00:45:12 \U0001f44b",
    "This transcript was computer generated",
]
chat_lines = st.builds(
    lambda time, sender, to, said: f"{time} From {sender} to {to}:\n\t{said}",
    st.one_of(clock, short_time),
    names,
    st.one_of(st.sampled_from(["Everyone", "Everyone (in Waiting Room)"]), names),
    st.one_of(
        sentences,
        st.sampled_from(['Replying to "Can someone sh..."', 'Reacted to "ok" with \U0001f64f']),
    ),
) | st.builds(lambda t, n: f"{t} From {n} (Direct Message):", clock, names)
timestamped_lines = lines_of(
    ["[{t}] {n}: {s}", "{t} {n}: {s}", "({t}) - {n}: {s}", "[{t}] {s}", "{t} - {s}"]
).flatmap(lambda line: stamps().map(lambda time: line.replace("{t}", time)))
note_lines = lines_of(
    [
        "# {s}",
        "## Decisions",
        "## Action items",
        "## Attendees",
        "- {n}",
        "- [ ] {n} to {s} by Friday",
        "- [x] {s}",
        "* {s}",
        "1. {s}",
        "**Owner:** {n}",
        "Date: 2026-03-31",
        "Attendees: {n}, {n} and {n}",
        "{n}: {s}",
        "{s}",
        "| {n} | {s} |",
        "```",
        "> {s}",
        "Decision: {s}",
        "Action: {n} will {s}",
        "",
    ]
)


def joined(
    lines: st.SearchStrategy[str], heads: list[str], feet: list[str]
) -> st.SearchStrategy[str]:
    """A file of `lines` under one of `heads`, above one of `feet`."""
    return st.builds(
        lambda head, body, foot: "\n".join([head, *body, foot]),
        st.sampled_from(heads),
        st.lists(lines, max_size=15),
        st.sampled_from(feet),
    )


formats = st.one_of(
    vtt_texts(),
    srt_texts(),
    joined(otter_turns, OTTER_HEADS, OTTER_FEET),
    joined(meet_lines, MEET_HEADS, MEET_FEET),
    joined(chat_lines, [""], [""]),
    joined(timestamped_lines, ["Pricing page review\n19 March 2026 · 11:00 CET", ""], [""]),
    joined(
        note_lines, ["# Weekly sync", "Weekly sync\nDate: 2026-03-31\nAttendees: A, B", ""], [""]
    ),
    joined(lines_of(["{n}: {s}", "{s}", "{n} (00:04): {s}"]), [""], [""]),
)
# Several formats in one file, as a paste of two exports would be.
transcript_texts = st.one_of(
    formats, formats, formats, st.lists(formats, min_size=2, max_size=3).map("\n".join)
)


@st.composite
def mangled(draw: st.DrawFn, texts: st.SearchStrategy[str] = transcript_texts) -> str:
    """A transcript as it may reach memo: any line ends, a BOM, odd characters, cut short."""
    text = draw(sprinkled(texts))
    ends = draw(st.sampled_from(["\n", "\n", "\r\n", "\r", "\r\r\n", "mixed"]))
    if ends == "mixed":
        text = re.sub("\n", lambda m: ["\n", "\r\n", "\r"][m.start() % 3], text)
    else:
        text = text.replace("\n", ends)
    if rarely(draw):
        text = text[: draw(st.integers(0, len(text)))]
    return draw(st.sampled_from(["", "", "\ufeff", "\ufeff\ufeff"])) + text


ENCODINGS = ["utf-8"] * 10 + ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1252"]


def encoded(text: str, encoding: str) -> bytes:
    """The text's bytes: lone surrogates written as they are (invalid), unencodable
    characters replaced where the encoding has no room for them."""
    errors = "surrogatepass" if encoding.startswith("utf") else "replace"
    return text.encode(encoding, errors=errors)


FILE_NAMES = [
    "2026-03-31_q2-planning_Recording.transcript",
    "GMT20260331-100012_Recording",
    "meeting_saved_chat",
    "Weekly sync",
    "2026-02-30 bad date",
    "Ünïcödé \u202e名前",
    "x",
]
