"""Answers that say what holds now, say when there is no record, and ask which person."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.embed import EmbedService, FastEmbedder
from memo_tui.core.recall.answer import ask
from memo_tui.core.recall.gate import ASKS_FOR_A_DECISION, asked_value, gives_value
from store import Store

TODAY = dt.date(2026, 11, 29)

KICKOFF = """Attendees: Sam Okafor, Sam Lindqvist, Libby Harcourt
Date: 2026-03-02

Libby Harcourt: Code freeze. When can firmware stop taking changes?
Sam Lindqvist: I was thinking Friday the 20th of March.
Libby Harcourt: OK. Code freeze is Friday the 20th of March, that's agreed.
Sam Okafor: The field team needs the chargers on the back wall, by the docks.
Libby Harcourt: Agreed, chargers go on the back wall.
Sam Lindqvist: Wait, no. The soak test needs another week on ten robots.
Libby Harcourt: Then scrap the 20th. Code freeze is Friday the 27th of March.
Libby Harcourt: Sam Lindqvist, send the drift logs by Thursday.
Sam Lindqvist: Will do.
Libby Harcourt: Sam Okafor, write the shadow week plan by the 10th.
Sam Okafor: Sure.
"""


OPS = """Ops review
Attendees: Libby Harcourt, Omar Haddad, Sam Okafor
Date: 2026-03-16

Libby Harcourt: Kiosks. Reception asked about self-check-in kiosks again.
Omar Haddad: Nice idea, but it stays parked, no owner and no budget.
Libby Harcourt: Second van. We approved four thousand pounds for the second van in January.
Sam Okafor: Quick update. The shadow week plan went out to the shift leads on Friday.
Omar Haddad: Couriers. Brightline lost two more parcels.
Libby Harcourt: Then Parcelwise it is, from April.
Omar Haddad: Parcelwise charges nine pounds a parcel, and they collect twice a day.
Libby Harcourt: Omar, can you join the on-call rota from May?
Omar Haddad: Sorry, no. I can't take that on with the warehouse move.
Sam Okafor: We sold twelve hundred tickets for the depot open day already.
Omar Haddad: Note from OH: spoke to the courier account manager on Monday, all fine.
Libby Harcourt: Omar, can you ring the courier account manager again about the lost parcels?
Omar Haddad: Will do.
Omar Haddad: And Parcelwise keep asking for exclusive rights at the depot gate.
Sam Okafor: The fencing firm sent their quote for the depot open day, it's on the drive.
"""

AUDIT = """Depot audit
Attendees: Libby Harcourt, Omar Haddad, Paula Ines
Date: 2026-03-23

Libby Harcourt: Omar, can you renew the forklift lease before the audit?
Omar Haddad: I can't, I'm at the warehouse move all week.
Libby Harcourt: Paula, can your team take it?
Paula Ines: Yes, we'll take it. Done by Friday.
Libby Harcourt: Last thing. On-call moves to a weekly rotation from April: Paula, then Sam Okafor.
Paula Ines: Fine by me.
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> object:
    from support.embedding import embedder as real_embedder

    folder = tmp_path_factory.mktemp("honest")
    (folder / "2026-03-02-freeze.txt").write_text(KICKOFF)
    (folder / "2026-03-16-ops.txt").write_text(OPS)
    embedder = real_embedder()
    with Store(folder / "memo.db") as store:
        embed = EmbedService(store, embedder)
        capture = CaptureService(store, CaptureOptions(user="t"), after_commit=embed.embed_capture)
        (folder / "2026-03-23-audit.txt").write_text(AUDIT)
        names = ("2026-03-02-freeze.txt", "2026-03-16-ops.txt", "2026-03-23-audit.txt")
        capture.capture_paths([folder / name for name in names])
        yield store, embedder


def test_the_answer_leads_with_the_call_that_holds_and_tells_the_old_one_after(
    store: tuple[Store, FastEmbedder],
) -> None:
    result = ask(*store, "When is the code freeze?", today=TODAY)
    first = result.answer.splitlines()[1]
    assert "27th of March" in first and "changed on 2026-03-02; before:" in first
    assert first.index("27th") < first.index("20th")  # the current call first, then the old
    old = next(h for h in result.citations if "20th" in h.fact.text)
    assert old.fact.text.endswith("(superseded)")


def test_a_name_that_fits_two_people_is_asked_about(store: tuple[Store, FastEmbedder]) -> None:
    result = ask(*store, "What did Sam commit to?", today=TODAY)
    assert result.answer.startswith("Which Sam do you mean: Sam ")
    assert set(result.which) == {"Sam Okafor", "Sam Lindqvist"}
    assert not result.no_record


@pytest.mark.parametrize(
    ("question", "why"),
    [
        ("When did we decide to move the code freeze onto Kubernetes?", "Kubernetes"),
        ("How are the marmalade jars and jam invoices at the docks?", "key terms"),
        ("Did we agree a budget for the soak test?", "no decision"),
        # a decision holds "code freeze", none the rarest word, "kiosks"
        ("What did we decide about reception kiosks in the code freeze?", "no decision"),
        # what was said around the question is not its answer: a count of tickets is no
        # price for them, initials or a task's owner are no one's name, a thing only talked
        # about was not decided, and a quote is a sum of money none was said of
        ("How much do the depot open day tickets cost?", "gives no sum of money"),
        (
            "What's the name of the courier account manager Omar spoke to?",
            "no name is given for the account manager",
        ),
        ("Have we given Parcelwise exclusive rights at the depot gate?", "no decision"),
        ("Are we giving Parcelwise exclusive rights at the depot gate?", "no decision"),
        ("How much was the fencing quote for the depot open day?", "gives no sum of money"),
        # the van's budget is no deposit for it, and no line names a warranty
        ("How much is the deposit for the second van?", "no figure is given for the deposit"),
        ("How long is the warranty on the second van?", "no length is given for the warranty"),
        ("Is the depot going to let dogs in?", "no decision"),
        # the fencing firm was talked about, but not what it charges
        ("What does the fencing firm charge us?", "gives no sum of money"),
    ],
)
def test_no_record_says_so_and_offers_the_closest_as_not_answering(
    store: tuple[Store, FastEmbedder], question: str, why: str
) -> None:
    result = ask(*store, question, today=TODAY)
    head = result.answer.splitlines()[0]
    assert head.startswith("No record of") and why in head and result.no_record, result.answer
    assert head.endswith("Closest, not answering it:")


def test_nothing_found_at_all_is_no_record_too(store: tuple[Store, FastEmbedder]) -> None:
    result = ask(*store, "Which lidar vendor supplies heater kits?", today=TODAY)
    assert result.answer.startswith("No record") and result.no_record and not result.citations


def test_the_gate_lets_an_answerable_question_through(store: tuple[Store, FastEmbedder]) -> None:
    result = ask(*store, "Where do the chargers go?", today=TODAY)
    assert not result.no_record and result.answer.startswith("From your meetings:")
    assert "back wall" in result.answer.splitlines()[1]


def test_a_value_asked_for_and_never_given_is_no_record(
    store: tuple[Store, FastEmbedder],
) -> None:
    """The kiosks were talked about, but no budget was set: the lines about them give no
    number. The van's budget was, and the answer quotes the line that gives it."""
    kiosks = ask(*store, "What is the budget for the self-check-in kiosks?", today=TODAY)
    head = kiosks.answer.splitlines()[0]
    assert kiosks.no_record and "gives no sum of money" in head, kiosks.answer
    van = ask(*store, "What is the budget for the second van?", today=TODAY)
    assert not van.no_record and "four thousand pounds" in van.answer, van.answer
    parcel = ask(*store, "How much does Parcelwise charge a parcel?", today=TODAY)
    assert not parcel.no_record and "nine pounds" in parcel.answer, parcel.answer
    # a fuller name than the one said ("Parcelwise Logistics"), and a thing named by a verb
    # ("how much did the open day raise?") or a figure word ("the money") are no reason to
    # say there is no record
    for question, said in (
        ("How much does Parcelwise Logistics charge a parcel?", "nine pounds"),
        ("How much is the money for the second van?", "four thousand pounds"),
        ("How much did the depot open day raise?", "twelve hundred"),
    ):
        found = ask(*store, question, today=TODAY)
        assert not found.no_record and said in found.answer, found.answer


@pytest.mark.parametrize(
    ("line", "given"),
    [
        ("The lease runs for a year.", True),
        ("Warranty is a fortnight from handover.", True),
        ("Warranty of 18 months.", True),
        ("The warranty is with the dealer.", False),
    ],
)
def test_a_length_is_a_figure(line: str, given: bool) -> None:
    assert gives_value("length", line, set()) == given
    assert not gives_value("number", line, set()) or "18" in line  # a count is no length


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When is the budget report due?", "date"),
        ("How many lines are in the budget?", "number"),
        ("How long is the lease?", "length"),
        ("How much did we budget for the second van?", "money"),
        ("What does the courier quote come to?", None),
        ("What does Parcelwise charge us per parcel?", "money"),
        ("What does the team think about cost?", None),
        ("What did the outage cost us?", None),  # not always money
    ],
)
def test_the_value_a_question_asks_for(question: str, kind: str | None) -> None:
    assert asked_value(question) == kind


@pytest.mark.parametrize(
    ("question", "decided"),
    [
        ("Are we buying a second van?", True),
        ("Did we end up upgrading Aerie?", True),
        ("Did we hear back from Fenwick?", False),  # said, not decided
        ("Did we talk about the van?", False),
        ("Did we get our money back from the courier?", False),  # what came of it
        ("Will the museum have an audio guide?", True),  # a plan, not only our own
        ("Is the bar going to let dogs in?", True),
        ("Will the app be ready by June?", False),  # when, not whether
        ("Is Hannah part of the on-call rotation?", False),
        ("Is Parcelwise going to collect twice a day?", False),  # said, not decided
        ("Is anyone going to the trade show?", False),
        ("Will the van be here before we open?", False),
    ],
)
def test_which_questions_ask_after_a_decision(question: str, decided: bool) -> None:
    assert bool(ASKS_FOR_A_DECISION.search(question)) == decided


def test_an_excerpt_is_quoted_by_the_turn_that_answers(
    store: tuple[Store, FastEmbedder],
) -> None:
    result = ask(*store, "How much does Parcelwise charge per parcel?", today=TODAY)
    assert "Omar Haddad: Parcelwise charges nine pounds a parcel" in result.answer
    assert "Kiosks. Reception asked" not in result.answer  # the excerpt's first turn


def test_whether_it_happened_leads_with_the_line_that_says_it_did(
    store: tuple[Store, FastEmbedder],
) -> None:
    result = ask(*store, "Did Sam Okafor write the shadow week plan?", today=TODAY)
    assert result.answer.startswith("Yes, reported done [1].")
    assert "went out to the shift leads on Friday" in result.answer.splitlines()[1]
    assert "write the shadow week plan by the 10th" in result.answer  # the ask follows


@pytest.mark.parametrize(
    "question",
    [
        "Did Omar join the on-call rota?",  # asked, and turned down
        "Did the shift leads approve the second van?",  # a line reports "went out", of a plan
    ],
)
def test_whether_it_happened_is_never_yes_without_a_line_saying_so(
    store: tuple[Store, FastEmbedder], question: str
) -> None:
    result = ask(*store, question, today=TODAY)
    assert not result.answer.startswith("Yes"), result.answer


def test_who_did_it_while_someone_was_away_is_not_about_the_one_away(
    store: tuple[Store, FastEmbedder],
) -> None:
    """The person named in a question asking who is where it happened, not the answer: the
    task they turned down, handed to another, is found, under its new owner."""
    result = ask(*store, "Who renewed the forklift lease while Omar was away?", today=TODAY)
    assert "(owner: Paula Ines)" in result.answer.splitlines()[1], result.answer


def test_a_request_turned_down_says_so(store: tuple[Store, FastEmbedder]) -> None:
    result = ask(*store, "Is Omar part of the on-call rota?", today=TODAY)
    [said] = [line for line in result.answer.splitlines() if "(owner: Omar Haddad)" in line]
    assert said.endswith(") (dropped: turned down) [1]"), result.answer


@pytest.mark.parametrize(
    ("question", "head"),
    [
        (
            "Is Omar part of the on-call rota?",
            r"Omar Haddad is not among those \[\d+\] names: Paula and Sam Okafor\.",
        ),
        ("Is Paula on the on-call rotation?", r"Paula Ines is among those \[\d+\] names\."),
    ],
)
def test_whether_someone_is_in_a_group_reads_the_line_that_lists_it(
    store: tuple[Store, FastEmbedder], question: str, head: str
) -> None:
    result = ask(*store, question, today=TODAY)
    said = re.match(head, result.answer)
    assert said, result.answer
    n = int(re.search(r"\[(\d+)\]", said.group()).group(1))  # type: ignore[union-attr]
    assert "weekly rotation from April" in result.citations[n - 1].fact.text


def test_a_group_is_listed_by_statements_not_questions_speakers_or_deciders() -> None:
    from memo_tui.core.recall.members import Membership

    rota = Membership(
        "Hannah Osei",
        frozenset({"Hannah Osei", "Hannah"}),
        frozenset({"rotation"}),
        frozenset({"Hannah", "Jon", "Sam", "Libby", "Elizabeth", "Priya"}),
    )
    asked = "Libby: Hannah, Jon, would you join the rotation?"
    assert rota.said([(1, asked)]) == ""
    decided = "Jon and Priya share the rotation. (decided by Elizabeth Harcourt)"
    said = rota.said([(1, asked), (2, "Sam: Libby joins the rotation."), (3, decided)])
    assert said == "Hannah Osei is not among those [3] names: Jon and Priya."
    assert rota.said([(4, "Jon and Priya review the budget.")]) == ""  # not about the group
    assert rota.said([(5, "Jon, Priya and Hannah take the rotation.")]).endswith(
        "among those [5] names."
    )


def test_what_holds_now_leads_with_the_decision(store: tuple[Store, FastEmbedder]) -> None:
    result = ask(*store, "Which courier are we using now?", today=TODAY)
    assert result.answer.splitlines()[1].startswith("- Parcelwise it is"), result.answer


def test_what_holds_now_meets_its_decision_across_a_hyphen(
    store: tuple[Store, FastEmbedder],
) -> None:
    from memo_tui.core.recall.current import decisions_first

    result = ask(*store, "Who is on call at the moment?", today=TODAY)
    assert result.answer.splitlines()[1].startswith("- On-call moves to a weekly rotation")
    said = _hit(1000, "Omar Haddad: Who covers nights over Easter?")
    decided = _hit(1001, "On-call moves to a weekly rotation from April.", "decision")
    ordered = decisions_first(store[0], [said, decided], "Who is on call at the moment?")
    assert ordered[0] is decided


def test_the_answer_says_how_many_more_facts_matched(store: tuple[Store, FastEmbedder]) -> None:
    result = ask(*store, "code freeze soak chargers drift", today=TODAY)
    shown = len(set(re.findall(r"\[(\d+)\]", result.answer)))
    assert len(result.citations) > shown >= 3
    assert f"({len(result.citations) - shown} more matching fact" in result.answer
    # by kind, each kind counted once: "…in the sources: 3 excerpts, 2 decisions)"
    tail = result.answer.splitlines()[-1]
    counts = re.findall(r"(\d+) (decision|action item|excerpt|summary)", tail.split(": ", 1)[1])
    assert sum(int(n) for n, _ in counts) == len(result.citations) - shown, tail
    assert len({kind for _, kind in counts}) == len(counts)


QUESTIONS = [
    {"id": "c1", "q": "When is the code freeze now?", "kind": "current", "expect": [["27"]]},
    {"id": "n1", "q": "When did we agree to move to Kubernetes?", "kind": "none",
     "expect": [["no record"]], "meeting": None},
    {"id": "a1", "q": "What did Sam promise to send?", "kind": "ambiguous",
     "expect": [["okafor"], ["lindqvist"]], "meeting": None},
    {"id": "w1", "q": "Where are the chargers going?", "kind": "what",
     "expect": [["back wall"]], "meeting": "2026-03-02-freeze.txt"},
]  # fmt: skip


@pytest.mark.slow
def test_bench_ask_judges_each_kind(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "set"
    data.mkdir()
    (data / "2026-03-02-freeze.txt").write_text(KICKOFF)
    truth = {"file": "2026-03-02-freeze.txt", "date": "2026-03-02", "decisions": [], "actions": []}
    (data / "truth.jsonl").write_text(json.dumps(truth) + "\n")
    (data / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    from support.embedding import model_path

    env = {"MEMO_EMBED_MODEL_PATH": str(model_path())}
    run = memo("bench", "ask", "--data", str(data), "--json", extra_env=env)
    assert run.code == 0, run.stderr
    figures = run.json()
    assert {k: v["passed"] for k, v in figures["scores"].items()} == {
        "answerable": 1,
        "current": 1,
        "none": 1,
        "ambiguous": 1,
    }
    plain = memo("bench", "ask", "--data", str(data), "--detail", extra_env=env)
    assert "none         1/1" in plain.stdout and "PASS" in plain.stdout
    assert "answerable by kind: what 1/1" in plain.stdout, plain.stdout
    missing = memo("bench", "ask", "--data", str(tmp_path), extra_env=env)
    assert missing.code == 2 and "questions.jsonl" in missing.stderr


def _hit(n: int, text: str, fact_type: str = "excerpt") -> object:
    from memo_tui.core.recall.search import Hit
    from store import FactRecord

    fact = FactRecord(n, fact_type, n, text, 1, "t", None, "", "meeting", "x", n, n + 5)
    return Hit(fact, 1.0 / n, n, None, None)


def test_a_hit_whose_quoted_turn_answers_moves_up_but_not_past_everything() -> None:
    from memo_tui.core.recall.extractive import by_best_line, focused

    hits = [
        _hit(1, "Ana: Morning all.\nBo: The van is blue."),
        _hit(2, "Ana: Lunch?\nBo: Pizza."),
        _hit(3, "Cy: Coffee.\nBo: The courier collects twice a day from the back door."),
        _hit(4, "Cy: The courier collects twice a day."),
        _hit(5, "Di: Thanks."),
        _hit(6, "Ed: Bye."),
    ]
    question = "How often does the courier collect from the back door?"
    assert focused(hits, question)[2] == "Bo: The courier collects twice a day from the back door."
    order = [h.fact.fact_id for h in by_best_line(hits, question)]  # type: ignore[arg-type]
    assert order == [3, 1, 2, 4, 5, 6]  # the turn holding every word first; 4 holds fewer
    unmoved = by_best_line(hits, "the weather")  # type: ignore[arg-type]
    assert [h.fact.fact_id for h in unmoved] == [1, 2, 3, 4, 5, 6]


def test_an_answer_under_no_record_does_not_pass_the_bench() -> None:
    """The facts listed under "No record of …" are the closest, not an answer: an answerable
    question answered that way fails, however many of its words they hold."""
    from memo_tui.core.benchmarks.ask import judge
    from memo_tui.core.recall.answer import AskResult
    from memo_tui.core.recall.filters import QuestionFilters

    text = 'No record of "van" (x). Closest, not answering it:\n- The van is blue. [1]'
    question = {"id": "w", "kind": "what", "expect": [["blue"]], "meeting": None}
    gated = AskResult(text, [], QuestionFilters(), "hybrid", 1, no_record=True)
    assert judge(question, gated, {}) == (False, "said there is no record")
    answered = AskResult(
        "From your meetings:\n- The van is blue. [1]", [], QuestionFilters(), "hybrid", 1
    )
    assert judge(question, answered, {})[0]


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("The code freeze is Friday the 27th of March [1].", None),
        ("According to the facts, the freeze falls on the 27th of March [1].", None),
        ("Parcelwise charges 12 pounds a parcel [1].", "12 is in none of [1]"),  # it says nine
        ("The code freeze moved to the 30th of March [1].", "30 is in none of [1]"),
        # a sentence about something else than what it cites
        (
            "The office lease was renewed for another term [1].",
            "'The office lease was renewed for another term.' shares no word with [1]",
        ),
    ],
)
def test_a_model_answer_that_states_what_its_sources_do_not_is_set_aside(
    store: tuple[Store, FastEmbedder], said: str, why: str | None
) -> None:
    from support.fakes import anthropic_api as api
    from support.fakes.server import FakeServer

    from memo_tui.core.llm.anthropic_provider import AnthropicProvider

    question = "What does Parcelwise charge?" if "Parcel" in said else "When is the code freeze?"
    with FakeServer() as server:
        server.push(api.message(tool=("search_filters", {"fact_types": []})), api.stream([said]))
        provider = AnthropicProvider("k", server.url)
        result = ask(*store, question, provider=provider, model="m", today=TODAY, limit=3)
    if why is None:
        assert result.answer == said and result.note is None
    else:
        assert result.answer.startswith("From your meetings:"), result.answer
        assert f"the model's answer was set aside: {why}" in (result.note or ""), result.note


PRICING = """Autumn list pricing
Attendees: Maggie Ellery, Theo Nakamura
Date: 2026-06-16

Theo Nakamura: The retail partners want the hardback confirmed before the catalogue.
Maggie Ellery: Hardback stays at twenty pounds.
Theo Nakamura: And the ebook? Nine ninety-nine is close to the discounted hardback.
Maggie Ellery: Agreed: the ebook is £7.99, out the same day as the hardback.
"""


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What retail price did we settle on for the ebook?", "the ebook is £7.99"),
        # the value is of something never mentioned: a price for the ebook answers nothing
        ("What retail price did we settle on for the audiobook?", None),
    ],
)
def test_a_decision_giving_the_value_asked_answers_the_words_that_ask_for_it(
    tmp_path: Path, question: str, answer: str | None
) -> None:
    """ "What retail price did we settle on …" is answered by a decision that gives a price
    for the thing asked about, though it never says "retail price"."""
    (tmp_path / "2026-06-16-pricing.txt").write_text(PRICING)
    with Store(tmp_path / "memo.db") as store:
        CaptureService(store, CaptureOptions(user="t")).capture_paths(
            [tmp_path / "2026-06-16-pricing.txt"]
        )
        result = ask(store, None, question, today=TODAY)
    if answer is None:
        assert result.no_record, result.answer
    else:
        assert not result.no_record, result.answer
        assert answer in result.answer.splitlines()[1].lower(), result.answer


def test_what_holds_now_puts_a_later_call_on_the_same_thing_first() -> None:
    from memo_tui.core.recall.current import _newest_first
    from memo_tui.core.recall.search import Hit
    from store import FactRecord

    def decided(n: int, text: str, day: str) -> Hit:
        fact = FactRecord(n, "decision", n, text, n, "t", day, "", "meeting", "x", 1, 1)
        return Hit(fact, 1.0 / n, n, None, None)

    first = decided(1, "We open the gallery on Friday the 18th of September.", "2026-02-10")
    later = decided(
        2, "We move it: we open the gallery on Friday the 2nd of October.", "2026-05-14"
    )
    other = decided(3, "The phone line stays as it is until 2027.", "2026-07-01")
    order = [h.fact.fact_id for h in _newest_first([first, other, later])]
    assert order == [2, 1, 3]  # the later opening date first; the unrelated call keeps its rank


def test_a_question_after_a_value_leads_with_the_line_that_gives_one() -> None:
    """ "When …?" is answered by the line with the date, "who …?" by the task's owner (not
    by the person the question names), ahead of lines that only talk about it."""
    from memo_tui.core.recall.answering import answering_first

    talk = _hit(1, "Ana: The rollout to every clinic is the big one this year.")
    dated = _hit(2, "Roll out to all 14 clinics, phased, starting Mon 1/6.", "decision")
    aside = _hit(3, "Bo: Lunch is at one.")
    question = "When does the rollout to the clinics start?"
    lines = [h.fact.text for h in (talk, dated, aside)]  # type: ignore[attr-defined]
    order = answering_first([talk, dated, aside], question, lines)  # type: ignore[list-item]
    assert [h.fact.fact_id for h in order] == [2, 1, 3]

    asked = _hit(1, "Marta: I can run the soak, but I'm on leave that week.")
    owned = _hit(2, "Run the seventy-two hour soak on RC1. (owner: Priya Nair)", "action_item")
    mine = _hit(3, "Write up the soak report. (owner: Marta Kowalczyk)", "action_item")
    question = "Who ran the RC1 soak while Marta was on leave?"
    hits = [asked, mine, owned]
    lines = [h.fact.text for h in hits]  # type: ignore[attr-defined]
    order = answering_first(hits, question, lines, ["Marta Kowalczyk"])  # type: ignore[arg-type]
    assert [h.fact.fact_id for h in order][0] == 2  # Marta's own task answers nothing
    unmoved = answering_first(hits, "What did we say about the soak?", lines)  # type: ignore[arg-type]
    assert unmoved == hits


def test_past_forms_meet_their_verbs() -> None:
    from memo_tui.core.capture.offline.text import content_words

    assert content_words("Who ran the soak and sent the docs?") >= {"run", "send"}
    assert content_words("Who supplies the batteries?") == content_words("supply battery")
    assert content_words("shipped, shipping") == {"ship"}
    assert content_words("called, passed, staffed") == {"call", "pass", "staff"}
    assert content_words("we'll run it, then send them") >= {"run", "send"}


def test_what_holds_now_opens_a_meeting_summary_into_its_decisions(
    store: tuple[Store, FastEmbedder],
) -> None:
    """A summary found for a question about what holds now brings the decisions of its
    meeting that hold two of the question's words; the one that holds leads the answer."""
    from memo_tui.core.recall.current import _summaries_opened, decisions_first
    from memo_tui.core.recall.search import Hit

    db = store[0]
    ops = next(f for f in db.facts.all(fact_type="summary") if f.capture_title == "Ops review")
    summary = Hit(ops, 1.0, 1, None, None)
    ordered = decisions_first(db, [summary], "Which courier takes our parcels now?")
    assert ordered[0].fact.text.startswith("Parcelwise it is"), [h.fact.text for h in ordered]
    decided = db.captures.decisions([ops.capture_id or 0])
    opened = _summaries_opened(db, [summary], {"parcelwise", "courier", "april"}, decided)
    texts = [h.fact.text for h in opened]
    [text] = texts  # (labelled "(unconfirmed)" when memo is not sure of it)
    assert text.startswith("Parcelwise it is, from April. (decided by Libby Harcourt)")
    assert _summaries_opened(db, [summary], {"weather", "lunch"}, decided) == []


def test_what_holds_now_after_a_value_leads_with_a_decision_that_gives_one() -> None:
    from memo_tui.core.recall.current import _valued_first

    said = _hit(1, "Lighthouses goes out as a paperback original. (decided by Maggie Ellery)")
    dated = _hit(2, "Lighthouses comes out on the 5th of November. (decided by Maggie Ellery)")
    order = _valued_first([said, dated], "When does the Lighthouses book come out?")  # type: ignore[list-item]
    assert [h.fact.fact_id for h in order] == [2, 1]
    assert _valued_first([said, dated], "What format is Lighthouses?") == [said, dated]  # type: ignore[list-item]


def test_the_owner_a_label_names_is_no_name_a_question_asks_for() -> None:
    from memo_tui.core.recall.gate import gives_value

    assert not gives_value("name", "Tell the old courier firm. (owner: Sam Ortiz)", set())
    assert gives_value(
        "name", "We go with Parcelwise for deliveries. (decided by Sam Ortiz)", set()
    )


def test_what_is_not_shown_is_counted_by_kind() -> None:
    from memo_tui.core.recall.current import Change
    from memo_tui.core.recall.extractive import extractive_answer

    kinds = ["decision", "decision", "summary", "action_item", "summary", "excerpt"]
    hits = [_hit(n, f"fact {n}", kind) for n, kind in enumerate(kinds, 1)]
    # the second decision replaced the first: told beside it, so shown, not counted
    answer = extractive_answer(hits, most=1, changes=[Change(new=1, old=0)])  # type: ignore[arg-type]
    assert answer.splitlines()[-1] == (
        "(4 more matching facts in the sources: 2 summaries, 1 action item, 1 excerpt)"
    )


@pytest.mark.parametrize(
    ("question", "kind", "line", "missing"),
    [
        (
            "How long is the warranty on the van?",
            "length",
            "Warranty is with the dealer.",
            "warranty",
        ),
        ("How long is the warranty on the van?", "length", "The warranty runs a year.", ""),
        ("How much is the stipend we pay?", "money", "Mileage is 45p a mile.", "stipend"),
        ("How much did the open day raise?", "number", "Nothing said.", ""),  # no thing named
        ("How often is the bin collection?", "number", "Bins go weekly.", ""),  # a frequency
        ("What's the cover price of the book?", "money", "The cover is blue.", ""),  # a price
        (  # a name is asked of a role: a fleet manager is no account manager
            "What's the name of the Voltaic account manager we dealt with?",
            "name",
            "Aerie, that's our fleet manager, splits the wave.",
            "account manager",
        ),
        (
            "What's the name of the Voltaic account manager we dealt with?",
            "name",
            "Our account manager there is Dana Whitlock.",
            "",
        ),
        ("What was the name of the vendor?", "name", "We spoke to two.", ""),  # asks the vendor
    ],
)
def test_a_figure_is_asked_of_the_thing_named(
    question: str, kind: str, line: str, missing: str
) -> None:
    from memo_tui.core.recall.gate import _figure_missing

    asked = set(question.lower().split())
    found = _figure_missing(question, kind, [_hit(1, line)], asked)  # type: ignore[list-item]
    assert found.endswith(f"the {missing}") if missing else found == "", found
