"""The AMI/ICSI reader for training, on a corpus of a few meetings in the corpora's own NXT
layout: dialogue acts in the order said, labelled by the summaries' decisions and actions,
and never a meeting of the exclusion list (QMSum's validation and test splits)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.paths import REPO

from training.corpora import ExcludedMeeting, assert_trainable, exclusions, meetings

NITE = 'xmlns:nite="http://nite.sourceforge.net/"'


def ami_meeting(data: Path, meeting: str) -> None:
    """An AMI meeting: two speakers, a decision and an action in the summary, linked."""
    folder = data / "raw_ami"
    for sub in ("abstractive", "extractive", "dialogueActs", "words"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "abstractive" / f"{meeting}.abssumm.xml").write_text(
        f"<nite:root {NITE}><abstract><sentence nite:id='{meeting}.s.1'>They met.</sentence>"
        f"</abstract><actions><sentence nite:id='{meeting}.s.2'>B sends it.</sentence></actions>"
        f"<decisions><sentence nite:id='{meeting}.s.3'>Rubber case.</sentence></decisions>"
        "</nite:root>"
    )
    words = {
        "A": [
            ("0", "10.0", "We'll", ""),
            ("1", "10.4", "go", ""),
            ("2", "10.5", "rubber", ""),
            ("3", "10.9", ".", "true"),
        ],
        "B": [
            ("0", "12.0", "I'll", ""),
            ("1", "12.3", "send", ""),
            ("2", "12.6", "it", ""),
            ("3", "13.0", "Hmm", ""),
        ],
    }
    for speaker, listed in words.items():
        body = "".join(
            f"<w nite:id='{meeting}.{speaker}.words{n}' starttime='{t}'"
            + (f" punc='{p}'" if p else "")
            + f">{text}</w>"
            for n, t, text, p in listed
        )
        (folder / "words" / f"{meeting}.{speaker}.words.xml").write_text(
            f"<nite:root {NITE}>{body}<vocalsound nite:id='{meeting}.{speaker}.words9'/>"
            "</nite:root>"
        )
    acts = {"A": [("1", 0, 3)], "B": [("1", 0, 2), ("2", 3, 3)]}
    for speaker, listed in acts.items():
        body = "".join(
            f"<dact nite:id='{meeting}.{speaker}.dialog-act.x.{n}'><nite:child href='"
            f"{meeting}.{speaker}.words.xml#id({meeting}.{speaker}.words{a})..id("
            f"{meeting}.{speaker}.words{b})'/></dact>"
            for n, a, b in listed
        )
        (folder / "dialogueActs" / f"{meeting}.{speaker}.dialog-act.xml").write_text(
            f"<nite:root {NITE}>{body}</nite:root>"
        )
    links = [("A.dialog-act.x.1", "s.3"), ("B.dialog-act.x.1", "s.2"), ("B.dialog-act.x.2", "s.1")]
    body = "".join(
        f"<summlink><nite:pointer role='extractive' href='{meeting}.x.xml#id({meeting}.{a})'/>"
        f"<nite:pointer role='abstractive' href='{meeting}.abssumm.xml#id({meeting}.{s})'/>"
        "</summlink>"
        for a, s in links
    )
    (folder / "extractive" / f"{meeting}.summlink.xml").write_text(
        f"<nite:root {NITE}>{body}</nite:root>"
    )


def test_dialogue_acts_are_labelled_by_the_summaries_and_said_in_order(tmp_path: Path) -> None:
    ami_meeting(tmp_path, "ES2002a")
    [meeting] = list(meetings(tmp_path, frozenset()))
    assert (meeting.id, meeting.corpus) == ("ES2002a", "ami")
    said = [(a.speaker, a.text, sorted(a.labels)) for a in meeting.acts]
    assert said == [
        ("A", "We'll go rubber.", ["decision"]),
        ("B", "I'll send it", ["action"]),
        ("B", "Hmm", []),  # linked to the abstract only: a negative
    ]


def test_no_excluded_meeting_is_read_or_reaches_training(tmp_path: Path) -> None:
    listed = REPO.parent / "shared" / "data" / "training-exclusions.txt"
    if not listed.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the exclusion list at {listed}")
        pytest.skip(f"no exclusion list at {listed}")
    excluded = exclusions(listed)
    assert {"ES2006a", "Bed002"} <= excluded  # QMSum's validation split is in the list
    for meeting in ("ES2002a", "ES2006a"):  # ES2006a: QMSum validation
        ami_meeting(tmp_path, meeting)
    read = [m.id for m in meetings(tmp_path, excluded)]
    assert read == ["ES2002a"]
    assert_trainable(read, excluded)
    with pytest.raises(ExcludedMeeting, match="ES2006a"):
        assert_trainable([*read, "ES2006a"], excluded)


def test_no_unseen_set_is_learned_from() -> None:
    from training.labelled import training_sets, unseen

    benchdata = REPO / "benchdata"
    hidden = unseen(benchdata)
    assert {"heldout-4", "heldout-5", "heldout-9"} <= hidden
    chosen = {folder.name for folder in training_sets(benchdata, REPO / "no-dev-set-here")}
    assert chosen and not chosen & hidden
    assert {"heldout-1", "heldout-8"} <= chosen


def test_a_labelled_sets_quotes_label_the_sentences_memo_reads() -> None:
    from training.labelled import labelled_meetings

    folder = REPO / "benchdata" / "heldout-1"
    read = list(labelled_meetings(folder))
    assert len(read) == 6
    quotes = sum(len(m.unplaced) for m in read)
    labelled = [s for m in read for s in m.said if s.labels]
    assert quotes == 0  # every decision, action and near miss found in a sentence
    kinds = {kind for s in labelled for kind in s.labels}
    assert kinds == {"decision", "action", "near_miss"}
    assert all(s.text in m.transcript.turns[s.turn].text for m in read for s in m.said)


def test_the_thresholds_assert_only_where_held_out_precision_holds() -> None:
    import numpy as np

    from training.extraction import thresholds

    rng = np.random.default_rng(0)
    p = rng.random(400)
    y = (rng.random(400) < p).astype(int)  # calibrated: right as often as it says
    assert_at, propose_at = thresholds(p, y)
    above = p >= assert_at
    assert y[above].mean() >= 0.95 and above.sum() >= 20
    assert y[p >= propose_at].sum() >= 0.92 * y.sum()
    assert propose_at <= assert_at
    never = thresholds(np.full(50, 0.5), np.zeros(50, dtype=int))
    assert never[0] > 1  # no cut is right often enough: nothing is asserted
