"""An email thread's capture, prepared: the extractor's record of the thread's transcript,
as the rows to write. With the offline rules it is a pure function of the transcript, so a
bulk import runs it in a worker process while the thread before is written (see ahead.py);
the names are linked to people afterwards, in the writing process, against the store's
directory."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memo_tui.core.capture import dedup
from memo_tui.core.capture.record import Outcome, build_capture
from memo_tui.core.capture.sources import Transcript
from store import NewCapture

if TYPE_CHECKING:
    from memo_tui.core.llm.schemas import Extraction


def thread_source(source: str, thread_key: str) -> str:
    """Where a thread's capture came from: the mail source, then the thread."""
    return f"{source}#{thread_key}"


def prepared_thread(
    job: tuple[Transcript, str],
    extract: Callable[[Transcript], Extraction | Outcome],
    extractor: str,
    user: str,
) -> NewCapture:
    """The capture of a thread's transcript (with the path `thread_source` gave it), as
    `extract` reads it (called `extractor`), its names not linked yet."""
    transcript, source_path = job
    return build_capture(
        transcript,
        extract(transcript),
        content_hash=dedup.content_hash(transcript.text),
        signature=dedup.signature(transcript.text),
        source_path=source_path,
        source_kind="email",
        extractor=extractor,
        user=user,
        source_type="email",
    )
