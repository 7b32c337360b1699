"""Every crash the fuzzing found (tests/core/test_fuzz_*.py, scripts/fuzz) is kept in
tests/data/fuzz/ and replayed here, in every run: save a failing input there as the file it
was (.txt, .md, .vtt, .srt, .docx, .eml, .mbox), or as .json for text handed to a reader
({"reader": "text" | "html" | "dates", "text": ..., "meeting": ... for dates, "found": what
went wrong}).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fuzzing.profile import HARD_LIMIT
from support.fuzzing.replay import REPLAY, fixtures
from support.timing import deadline


@pytest.mark.parametrize("fixture", fixtures(), ids=lambda path: path.name)
def test_fuzz_fixture_is_read(fixture: Path) -> None:
    """Each input the fuzzing once crashed on, read as its kind of file is."""
    with deadline(HARD_LIMIT):
        REPLAY[fixture.suffix](fixture)
