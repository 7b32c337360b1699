"""The learned closer: how likely a sentence of a later meeting says an earlier open task is
done ("Toby did confirm the tube in the end", "thanks for the Saturday rota, it went out on
the tenth").

The rules (`closing`) propose (a sentence they read as not done is no candidate); a logistic
model learned from the labelled sets' `closes`
links (`scripts/train-extraction`, model card beside the weights) decides. It reads each pair
of an open task and a sentence sharing one of its key words: how alike the two are (the
embeddings search uses), how much of the task's rarer words the sentence says, whether its
owner says it or is named, the rules' done and not-done cues and their verdict, the
sentence's words, and how the pair ranks against the other tasks and sentences. Each
sentence closes at most one task and each task is closed once, most likely first; a close
at or above `propose_at` (held out, 85% of such closes were right) is proposed for review,
and one at or above `apply_at` (none wrong held out) would be applied.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memo_tui.core.capture.offline.judge import Embed
from memo_tui.core.capture.offline.pairs import Logistic, Pair, likeness, unit_vectors
from memo_tui.core.capture.subject import subject_words
from memo_tui.core.history.closing import (
    DONE,
    NOT_DONE,
    TICKED,
    enough_said,
    names_of,
    said_names,
)

WEIGHTS = Path(__file__).parent / "models" / "closes.npz"
HASHED = 256  # buckets for a sentence's words and word pairs
PAIR = 20
FEATURES = f"pair-{PAIR} words-{HASHED} denied"  # in the version: weights fit these inputs only
_WORD = re.compile(r"[a-z0-9']+")
_NEGATION = re.compile(r"n't\b|\b(?:not|never|yet|still|nobody|no one)\b", re.IGNORECASE)
_DENIED = re.compile(  # a done word negated: "isn't booked yet", "hasn't been sent"
    r"(?:n't|\bnot|\bnever)\s+(?:(?:yet|been|quite|actually|even|all|really)\s+)*(?:"
    + DONE.pattern
    + ")",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"^\W*(?:(?:so|and|yeah|yes|oh|um|uh|well)\W+)*(?:i|we)\b", re.I)


@dataclass(frozen=True)
class Task:
    """An open task as the closer reads it."""

    text: str
    owner: str | None


@dataclass(frozen=True)
class Sentence:
    """A sentence of the later meeting and who said it."""

    speaker: str | None
    text: str


def candidates(
    tasks: Sequence[Task], said: Sequence[Sentence], others: Sequence[str], embed: Embed
) -> tuple[list[Pair], np.ndarray]:
    """Every pair of a task and a sentence sharing one of its key words, and their inputs.
    `others` are what else the store is about (decisions' subjects): a word they say often
    is not rare."""
    owns = [subject_words([t.text]) for t in tasks]
    words = [set() if denied(s.text) else subject_words([s.text]) for s in said]
    pairs = [
        Pair(a, n) for a, own in enumerate(owns) for n, heard in enumerate(words) if own & heard
    ]
    if not pairs:
        return [], np.zeros((0, PAIR + HASHED), dtype=np.float32)
    counts = Counter(w for own in owns for w in own)
    counts.update(w for other in others for w in subject_words([other]))
    documents = len(owns) + len(others)

    def rarity(word: str) -> float:
        return math.log((documents + 1) / (counts[word] + 0.5))

    alike = _likeness(tasks, said, pairs, embed)
    by_sentence: dict[int, list[float]] = {}
    by_task: dict[int, list[float]] = {}
    for pair, cos in zip(pairs, alike, strict=True):
        by_sentence.setdefault(pair.later, []).append(cos)
        by_task.setdefault(pair.earlier, []).append(cos)
    rows = [
        _inputs(
            tasks[pair.earlier],
            said[pair.later],
            (owns[pair.earlier], words[pair.later]),
            rarity,
            (cos, by_sentence[pair.later], by_task[pair.earlier]),
            pair.later / len(said),
        )
        for pair, cos in zip(pairs, alike, strict=True)
    ]
    dense = np.asarray(rows, dtype=np.float32)
    return pairs, np.hstack([dense, _hashed([said[p.later].text for p in pairs])])


def _inputs(
    task: Task,
    sentence: Sentence,
    words: tuple[set[str], set[str]],
    rarity: Callable[[str], float],
    likeness: tuple[float, list[float], list[float]],
    position: float,
) -> list[float]:
    """One pair's inputs: `words` the task's key words and the sentence's, `likeness` the
    pair's and those of the pairs sharing its sentence and its task."""
    own, shared = words[0], words[0] & words[1]
    cos, same_sentence, same_task = likeness
    weight = sum(rarity(w) for w in own) or 1.0
    share = sum(rarity(w) for w in shared)
    rivals = sorted((c for c in same_sentence if c != cos), reverse=True)
    rank = sum(c > cos for c in same_task)
    done = bool(DONE.search(sentence.text))
    not_done = bool(NOT_DONE.search(sentence.text))
    ticked = bool(TICKED.match(sentence.text))
    names = names_of(task.owner)
    by_owner = bool(names & said_names(sentence.speaker or ""))
    named = bool(names & said_names(sentence.text))
    rules = (
        (by_owner or named)
        and enough_said(share, len(shared), share / weight)
        and ((done and not not_done) or ticked)
    )
    return [
        cos,
        cos - (rivals[0] if rivals else 0.0),
        not rivals or cos >= rivals[0],
        min(rank, 20) / 20,
        share / weight,
        min(share, 10) / 10,
        min(len(shared), 6) / 6,
        len(shared) / max(len(own), 1),
        done,
        not_done,
        ticked,
        done and not not_done,
        by_owner,
        named,
        by_owner or named,
        bool(_FIRST_PERSON.search(sentence.text)),
        min(len(sentence.text.split()), 60) / 60,
        sentence.text.rstrip().endswith("?"),
        position,
        rules,
    ]


def denied(text: str) -> bool:
    """The rules' veto: a sentence that says something is not done (a negation and no done
    word, or a done word negated) closes nothing, whatever its words share."""
    return bool(_NEGATION.search(text) and not DONE.search(text)) or bool(_DENIED.search(text))


def _likeness(
    tasks: Sequence[Task], said: Sequence[Sentence], pairs: list[Pair], embed: Embed
) -> list[float]:
    """Cosine likeness of each pair's task and sentence."""
    texts = [tasks[p.earlier].text for p in pairs] + [said[p.later].text for p in pairs]
    vectors = unit_vectors(texts, embed)
    return [likeness(vectors, tasks[p.earlier].text, said[p.later].text) for p in pairs]


def _hashed(texts: list[str]) -> np.ndarray:
    """Each sentence's words and word pairs, hashed into `HASHED` buckets."""
    found = np.zeros((len(texts), HASHED), dtype=np.float32)
    for row, text in enumerate(texts):
        words = _WORD.findall(text.lower())
        grams = set(words) | {f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)}
        for gram in grams:
            found[row, zlib.crc32(gram.encode()) & (HASHED - 1)] = 1 / math.sqrt(len(grams))
    return found


def closes(
    closer: Logistic,
    tasks: Sequence[Task],
    said: Sequence[Sentence],
    others: Sequence[str],
    embed: Embed,
) -> list[Pair]:
    """The tasks the sentences close (`earlier` a task, `later` its sentence), each with its
    probability, at or above `propose_at`."""
    pairs, inputs = candidates(tasks, said, others, embed)
    return closer.chosen(pairs, inputs)


def shipped() -> Logistic | None:
    """The closer packaged with memo (None before it was trained)."""
    return Logistic.packaged(WEIGHTS)
