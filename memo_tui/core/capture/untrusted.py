"""Transcripts are untrusted: defusing fence tags, and spotting text addressed to a model.

Both extractors use this. The LLM path fences the transcript and must stop the text from
closing that fence; the offline path never extracts from a turn that talks to an AI
("ignore previous instructions", fake system prompts, spoofed tool output): such a turn is
something pasted or read out, not what the meeting decided.
"""

from __future__ import annotations

import re

_INVISIBLE = r"[\s\u00ad\u200b-\u200f\u2060\ufeff]*"
_WORD = _INVISIBLE.join("transcript")
# "<", a full-width or small "<", or "&lt;", then an optional "/", then "transcript" in any
# case, with spaces or invisible characters anywhere in between.
FENCE_TAG = re.compile(
    rf"(?:<|\uff1c|\ufe64|&lt;)(?={_INVISIBLE}/?{_INVISIBLE}{_WORD})", re.IGNORECASE
)
_DEFUSED_TAG = re.compile(rf"\u2039(?={_INVISIBLE}/?{_INVISIBLE}{_WORD})", re.IGNORECASE)

_TO_A_MODEL = re.compile(
    "|".join(
        [
            r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|prompts?|"
            r"your rules|the above)\b",
            r"\bsystem (?:prompt|override|instruction)s?\b|\bsystem message\s*:|\[\s*system\b|"
            r"<\|im_start\|>|"
            r"###\s*instruction|\[/?INST\]|^\W*(?:system|assistant)\s*:",
            r"\byou are (?:now )?(?:an? |the )?(?:ai|assistant|language model|model|chatbot|"
            r"unfiltered|\w+bot)\b|\bpretend (?:to be|you are|that you)\b|\bas an ai\b",
            r"\bassign (?:every|all|each)\b|\bowner of (?:all|every)\b|"
            r"\bchange the (?:assignee|owner)s?\b",
            r"<\s*/?\s*tool_(?:use|call)|\"(?:decisions|action_items|tool_calls?)\"\s*:|"
            r"\bfunction_call\b",
        ]
    ),
    re.IGNORECASE,
)


def neutralize(text: str) -> str:
    """`</transcript>` in any case, spacing or disguise becomes `‹/transcript>`, which no
    longer opens or closes anything."""
    return FENCE_TAG.sub("\u2039", text)


def addresses_a_model(text: str) -> bool:
    """Whether a turn is an instruction to an AI, a fence break or a quoted/pasted block."""
    if FENCE_TAG.search(text) or _DEFUSED_TAG.search(text) or text.lstrip().startswith(">"):
        return True
    return bool(_TO_A_MODEL.search(text))
