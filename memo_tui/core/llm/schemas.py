"""What extraction produces, whichever extractor ran (offline rules or an LLM)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

# How sure the extractor is of an item, and what that makes it: "asserted" (a fact),
# "proposed" (waits for the user's word) or "rejected" (the user said no). Set by memo, never
# asked of a model: left out of the schema a model fills.
State = Literal["asserted", "proposed", "rejected"]


class ExtractedDecision(BaseModel):
    """Something the meeting decided, with why and who."""

    description: str = Field(description="What was decided, as one self-contained sentence.")
    reasoning: str | None = Field(default=None, description="Why, as said in the meeting.")
    decided_by: str | None = Field(default=None, description="Who made or announced the call.")
    evidence_quote: str = Field(description="Words copied verbatim from the transcript.")
    status: Literal["current", "superseded"] = Field(
        default="current",
        description="superseded when a later decision in this meeting replaced this one.",
    )
    superseded_by: int | None = Field(
        default=None,
        description="For a superseded decision: the number (1 = first in this list) of the "
        "decision that replaced it.",
    )
    confidence: SkipJsonSchema[float | None] = None
    state: SkipJsonSchema[State | None] = None


class ExtractedActionItem(BaseModel):
    """Something someone owes, with owner and due date when stated."""

    description: str = Field(description="The task, as one self-contained sentence.")
    assignee: str | None = Field(default=None, description="The owner's name as written.")
    due_date: dt.date | None = Field(default=None, description="ISO date, when one was stated.")
    status: Literal["open", "done", "dropped"] = Field(
        default="open",
        description="done when ticked off or already done; dropped when turned down.",
    )
    evidence_quote: str = Field(description="Words copied verbatim from the transcript.")
    confidence: SkipJsonSchema[float | None] = None
    state: SkipJsonSchema[State | None] = None


class ExtractionMeta(BaseModel):
    attendees: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    outcomes: list[str] = Field(default_factory=list)


class Extraction(BaseModel):
    """The structured record of one meeting."""

    summary: str
    meta: ExtractionMeta = Field(default_factory=ExtractionMeta)
    decisions: list[ExtractedDecision] = Field(default_factory=list)
    action_items: list[ExtractedActionItem] = Field(default_factory=list)
    model_version: SkipJsonSchema[str | None] = None  # the judge that gave the confidences
    judge_note: SkipJsonSchema[str | None] = None  # what the judge lacked, when it did
