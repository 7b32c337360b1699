"""The offline extractor's rules, each on a meeting written for it (none is a dev-set line):
how decisions are called and taken back, which lines are no decision at all, and what makes a
task a task."""

from __future__ import annotations

import datetime as dt

import pytest

from memo_tui.core.capture.offline.call_values import same_amounts
from memo_tui.core.capture.offline.extractor import by_rules as extract  # the rules, unjudged
from memo_tui.core.capture.sources import parse
from memo_tui.core.llm.schemas import Extraction


def meeting(*lines: str) -> Extraction:
    return extract(parse("Date: 2026-11-02\n" + "\n".join(lines) + "\n", "m.txt", "txt"))


def said(result: Extraction) -> list[str]:
    return [d.description for d in result.decisions if d.status == "current"]


@pytest.mark.parametrize(
    ("lines", "decided"),
    [
        (  # "<choice> it is"
            [
                "Nadia Roy: Both quotes are in.",
                "Omar Haddad: Brightline is cheaper and ships sooner.",
                "Nadia Roy: OK, Brightline it is.",
            ],
            "brightline it is",
        ),
        (  # a refusal stated as a decision
            [
                "Omar Haddad: Do we need a mobile app for launch?",
                "Nadia Roy: No. We're not building a mobile app this year.",
            ],
            "not building a mobile app",
        ),
        (  # "Final answer:" with no space before the colon
            [
                "Nadia Roy: Three vendors, one budget.",
                "Nadia Roy: Final answer: we renew with Brightline for two years.",
            ],
            "renew with brightline",
        ),
        (  # "agreed:" after a filler
            [
                "Omar Haddad: I'd want a week of shadowing first.",
                "Nadia Roy: OK, agreed: one week of shadowing before the switch.",
            ],
            "one week of shadowing",
        ),
        (  # a statement marked final by a word after it
            [
                "Omar Haddad: Standups at nine thirty then?",
                "Nadia Roy: Standups at nine thirty. Final.",
            ],
            "standups at nine thirty",
        ),
        (  # the statement after "I'm making the call"
            [
                "Omar Haddad: We could keep arguing all day.",
                "Nadia Roy: I'm making the call. The archive moves to cold storage in March.",
            ],
            "archive moves to cold storage",
        ),
        (  # "That's final" points back at the statement before it
            [
                "Nadia Roy: Remote Fridays stay for the whole team. That's final for this year.",
                "Omar Haddad: Noted.",
            ],
            "remote fridays stay",
        ),
        (  # "not negotiable" points back too
            [
                "Paula Ines: I'm not signing this off until the pen test is done. "
                "That's not negotiable.",
                "Nadia Roy: Understood.",
            ],
            "pen test",
        ),
        (  # a call taken back and made in one sentence
            [
                "Nadia Roy: Omar covers support alone.",
                "Paula Ines: He's away in May.",
                "Nadia Roy: Fair. Scrap that, we'll do a weekly support rotation for all of us.",
            ],
            "weekly support rotation",
        ),
        (  # a call announced and made in one sentence
            [
                "Paula Ines: The names have to go.",
                "Paula Ines: I'm putting my foot down on this: no customer names in the emails.",
            ],
            "no customer names",
        ),
        (  # a call made after a dash, and an adverb is no one's name
            [
                "Omar Haddad: Honestly, let's go with the blue, option B.",
                "Nadia Roy: Then I'm going to make the call - we put her quote on the front.",
            ],
            "put her quote on the front",
        ),
        (  # the call left to who just spoke
            [
                "Nadia Roy: Roll back, or fix forward?",
                "Omar Haddad: We fix forward, we don't roll back.",
                "Nadia Roy: Okay. Your call, Omar.",
            ],
            "fix forward",
        ),
        (  # "for now we keep …"
            [
                "Omar Haddad: Could we send it by post instead?",
                "Nadia Roy: Let's park that. For now we keep the reminder at two days before.",
            ],
            "keep the reminder at two days",
        ),
        (  # a conclusion drawn, after "Okay then."
            [
                "Omar Haddad: A week later suits everyone.",
                "Nadia Roy: Okay then. The launch moves to the 10th of December.",
            ],
            "launch moves",
        ),
        (  # a rule set until a date
            ["Nadia Roy: One more thing: no new features until the fifteenth. Fixes only."],
            "no new features",
        ),
        (  # everyone agreeing
            ["Omar Haddad: Any objection? No? Okay, so we all agree the minimum is version 16."],
            "minimum is version 16",
        ),
        (  # a value set in so many words
            ["Nadia Roy: No. Right. We go to five thousand on the first print run."],
            "five thousand",
        ),
        (
            ["Nadia Roy: I don't love it, but the atlas is now publishing on the first of May."],
            "first of may",
        ),
        (  # "each" after a count is no habit
            [
                "Omar Haddad: What if we just paid Lena double?",
                "Nadia Roy: No. On-call moves to a weekly rotation: Omar, Lena and Sam, one "
                "week each, starting Monday the 5th of October.",
                "Lena Park: Fine by me, as long as there's a runbook.",
            ],
            "weekly rotation",
        ),
        (  # a plan said in the plain present, with a date
            [
                "Omar Haddad: The fitters need another week.",
                "Nadia Roy: Then the 3rd is gone. We reopen the depot on Monday the 10th.",
            ],
            "monday the 10th",
        ),
        (  # ... or with none, confirmed
            [
                "Omar Haddad: Their renewal price is up again.",
                "Nadia Roy: So we stay with Parcelwise, it's still the cheapest.",
                "Omar Haddad: Agreed.",
            ],
            "stay with parcelwise",
        ),
        (
            [
                "Omar Haddad: A discount would look desperate.",
                "Nadia Roy: What we'll do instead is free delivery for the first month.",
            ],
            "free delivery",
        ),
        (
            [
                "Omar Haddad: It's twelve percent more than last year.",
                "Nadia Roy: I'm accepting the increase, it's my budget line.",
            ],
            "accepting the increase",
        ),
        (  # a contingency in a clause of its own leaves the plan a plan
            [
                "Omar Haddad: The lift engineer can't promise anything.",
                "Nadia Roy: We reopen the depot on Monday the 4th of May, and if the lift fails "
                "again we deal with it then.",
            ],
            "reopen the depot",
        ),
        (  # "let's do that" before the statement of what: that statement is the call
            [
                "Omar Haddad: My suggestion is we stop the booking slots from August.",
                "Nadia Roy: Yes. Let's do that. From the first of August no booking needed, "
                "visitors just turn up.",
            ],
            "no booking needed",
        ),
        (  # what settles it points back at the call
            [
                "Omar Haddad: The hall is bigger, but it has no lift.",
                "Nadia Roy: Then it's the library. The lift settles it, I'm afraid.",
            ],
            "library",
        ),
        (
            [
                "Omar Haddad: Should we move the sculpture for the opening?",
                "Nadia Roy: No. It stays exactly where it is, it took a crane to put it there.",
            ],
            "stays exactly where it is",
        ),
        (
            [
                "Omar Haddad: The survey says the roof needs work, but the swifts are nesting.",
                "Nadia Roy: Okay, so the roof waits until September.",
            ],
            "roof waits until september",
        ),
        (
            [
                "Omar Haddad: The cases are ready.",
                "Nadia Roy: Okay, so the install starts Monday the ninth.",
            ],
            "install starts monday",
        ),
        (
            [
                "Omar Haddad: Eight percent would cover the overrun.",
                "Nadia Roy: Okay, eight percent, let's do that.",
            ],
            "eight percent",
        ),
        (
            [
                "Omar Haddad: The grant won't stretch to the roof.",
                "Nadia Roy: Fine, we'll fund the roof's twelve thousand from our own reserve.",
                "Omar Haddad: Agreed.",
            ],
            "fund the roof",
        ),
        (  # "let's do" with what it sets
            [
                "Omar Haddad: If we drop to seventy we save about six hundred on the run.",
                "Nadia Roy: Six hundred's not nothing. Okay, let's do a hundred and fifty proofs.",
            ],
            "hundred and fifty proofs",
        ),
        (  # a conclusion opened by "then"
            [
                "Omar Haddad: Hartside did the Whitby mounts, and the workshop is full.",
                "Nadia Roy: Then it's Hartside Mounts. They make the cradle.",
            ],
            "hartside",
        ),
        (  # and one closed by "then"
            [
                "Omar Haddad: The carnival is on the eighteenth. What about the week after?",
                "Nadia Roy: Okay, the twenty-fifth then.",
            ],
            "twenty-fifth",
        ),
        (  # said by the one whose call it is
            [
                "Omar Haddad: We could record the audiobook ourselves.",
                "Nadia Roy: I've decided we license audio to Ember rather than produce it.",
            ],
            "license audio to ember",
        ),
        (  # a limit set
            [
                "Omar Haddad: Fenwick came in at eighty-one.",
                "Nadia Roy: The line budget is capped at eighty-five thousand, install included.",
            ],
            "capped at eighty-five",
        ),
        (  # yes to a thing
            [
                "Omar Haddad: A pizza oven still needs extraction.",
                "Nadia Roy: Right. Yes to a kitchen, a small one.",
            ],
            "yes to a kitchen",
        ),
        (  # a value named for the plan
            [
                "Omar Haddad: Building control can't sign off before the end of June.",
                "Nadia Roy: Let's say we open on the first of July. It's a quiet start.",
            ],
            "open on the first of july",
        ),
        (  # a value kept for now
            [
                "Omar Haddad: Sixteen lines is a lot to keep fresh midweek.",
                "Nadia Roy: Twelve taps for now, we can add more later.",
            ],
            "twelve taps",
        ),
        (  # confirmed by the next sentence
            [
                "Omar Haddad: So the first proper run would be the start of June?",
                "Nadia Roy: Okay, first canning run Monday the 1st of June. Put it in the diary.",
            ],
            "first canning run",
        ),
        (  # a plan said against what it replaces
            [
                "Omar Haddad: Any kitchen needs extraction, electric or not.",
                "Nadia Roy: No kitchen, we drop it, and we do food trucks on the terrace instead.",
            ],
            "food trucks",
        ),
        (  # a conclusion in "we", whatever its verb, when it sets something
            [
                "Omar Haddad: The alerts add-on is a paid tier we can't buy before April.",
                "Nadia Roy: So for the trial, we check the ticket queue every fifteen minutes.",
                "Omar Haddad: Agreed.",
            ],
            "check the ticket queue every fifteen minutes",
        ),
        (  # a pick in a few words after a word that takes it
            [
                "Omar Haddad: Printers can do the 9th or the 16th of October.",
                "Nadia Roy: Okay, print run on the 16th.",
            ],
            "print run on the 16th",
        ),
        (
            [
                "Omar Haddad: Lagers or the pale ale first on the new line?",
                "Nadia Roy: Fine, Harbour Pale first.",
            ],
            "harbour pale first",
        ),
    ],
)
def test_ways_a_decision_is_called(lines: list[str], decided: str) -> None:
    assert any(decided in d.lower() for d in said(meeting(*lines))), said(meeting(*lines))


@pytest.mark.parametrize(
    "line",
    [
        "Nadia Roy: Let's move on.",
        "Nadia Roy: Last spring we decided to keep the archive on site, for the record.",
        "Nadia Roy: In March we agreed to freeze hiring, which is why the team is small.",
        "Nadia Roy: None of that was agreed with the supplier.",
        "Nadia Roy: The email says we agreed to waive the setup fee for the whole year.",
        'Nadia Roy: Someone posted this: "Decision: we pay Brightline double from now on.',
        "Nadia Roy: That's what it is.",
        "Nadia Roy: If we go with Brightline, the depot is an hour further out.",
        "Nadia Roy: Proposal. We move the whole archive to cold storage by June.",
        "Nadia Roy: I've heard enough on this one.",
        "Nadia Roy: In Feb we went with two sites, not three, because of the move.",
        "Nadia Roy: Recap: we picked Brightline for the courier contract.",
        "Nadia Roy: The thing about it is, nobody reads the release notes anyway.",
        "Nadia Roy: No customers complained during the pilot week.",
        "Nadia Roy: Most of the team goes on holiday in August.",
        "Nadia Roy: I'm changing my mind, the weather looks better than I thought.",
        "Nadia Roy: We go to Leeds every month for the depot review.",
        "Nadia Roy: The price goes up each January, like clockwork.",
        "Nadia Roy: We open at nine every day, the café at ten.",
        "Nadia Roy: We go through the list first, then the budget.",
        "Nadia Roy: We add the second van when the lease comes through.",
        "Nadia Roy: Right now we do the route planning in spreadsheets, and it takes hours.",
        "Nadia Roy: So we use the old scanner and we do the rest by hand.",  # sets nothing
        "Nadia Roy: So we do the rest of the routing by hand.",
        "Nadia Roy: Let's pick that up when Lena is back from leave.",
        "Nadia Roy: Last year we cut the menu to twelve dishes because of the kitchen.",
        "Nadia Roy: See you on Tuesday then.",
        "Nadia Roy: You'd be long finished by then.",
        "Nadia Roy: Why don't you go first then.",
        "Nadia Roy: And then, the costs will get a lot higher.",
        "Nadia Roy: Then it's only thirteen euros a unit.",
        "Nadia Roy: Let's do ten minutes on hiring before the budget.",
        "Nadia Roy: Thursday, then. I'll have the quote by Thursday.",
        "Nadia Roy: Let's say, for example, a hundred users a day.",
        "Nadia Roy: Yes to you too, and thanks for the flowers.",
        "Nadia Roy: Then it's a problem.",
        "Nadia Roy: Enjoy Lisbon then.",
        "Nadia Roy: Prices are set to rise in April.",
        "Nadia Roy: No to be honest I haven't read it.",
        "Nadia Roy: Let's say it costs fifty thousand, then what?",
        "Nadia Roy: That's the price you pay for going cheap.",
        "Nadia Roy: Let's do lunch with Omar on Friday.",
        "Nadia Roy: So we know the depot opens at eight.",  # "we" of what it knows
        "Nadia Roy: Then we've got three options for the van.",
        "Nadia Roy: So we talked about the 12th last time.",
        "Nadia Roy: So we c we can forget the second van.",  # a word broken off
        "Nadia Roy: Okay, thanks Omar.",
        "Nadia Roy: Right, two things before the budget.",
        "Nadia Roy: Okay, ten minutes on hiring.",
    ],
)
def test_what_is_no_decision(line: str) -> None:
    result = meeting("Omar Haddad: Morning all.", line, "Omar Haddad: Right.")
    assert result.decisions == [], result.decisions


def test_a_short_call_takes_in_the_statement_beside_it() -> None:
    result = meeting(
        "Omar Haddad: Three weeks or six?",
        "Nadia Roy: Let's make it six weeks. Customers can book up to six weeks ahead, and we'll "
        "look at the numbers after the pilot.",
        "Omar Haddad: Six weeks, noted.",
    )
    [decision] = result.decisions
    assert "book up to six weeks ahead" in decision.description
    assert result.action_items == []  # the statement was part of the call, not a task


def test_an_amount_chosen_in_a_few_words_is_worded_by_the_statement_that_put_it_forward() -> None:
    """ "Seven fifty it is." takes its words from the proposal of seven fifty, never from a
    statement that put another amount forward ("Five is nicer than four." before "Four it
    is." chose four, not five)."""
    chosen = meeting(
        "Ada Moss: Seven pounds fifty adult, six for concessions, under-sixteens still free.",
        "Ben Ode: Works for me.",
        "Ada Moss: Seven fifty it is.",
    )
    assert [d.description for d in chosen.decisions] == [
        "Seven pounds fifty adult, six for concessions, under-sixteens still free."
    ]
    other = meeting(
        "Libby Hart: Hannah, would you join the rotation? Five is nicer than four.",
        "Hannah Bell: Sorry, no. I'm at a hundred percent on the safety case.",
        "Libby Hart: Fair enough. Four it is.",
    )
    assert "Five is nicer" not in " ".join(d.description for d in other.decisions)


@pytest.mark.parametrize(
    ("line", "worded"),
    [
        (
            "Maggie: and someone needs to tell gareth we're not doing the kitchen because "
            "the landlord said no",
            "Someone needs to tell gareth we're not doing the kitchen.",  # never "Meone"
        ),
        ("Ann: So, then: the plan is Soho for the launch party.", "Soho for the launch party."),
        (
            "Ngozi Ade: Okay so then, docked goes to sixty, handheld stays at thirty, it's for "
            "the store page and because the headroom's there.",
            "Docked goes to sixty, handheld stays at thirty, it's for the store page.",  # no "and."
        ),
    ],
)
def test_a_call_is_worded_as_said_less_only_its_lead_words(line: str, worded: str) -> None:
    [decision] = meeting(line, "Bob Ode: ok.").decisions
    assert decision.description == worded


def test_a_call_of_what_is_not_done_takes_in_what_is_done_instead() -> None:
    result = meeting(
        "Siobhan Darcy: They want a live view. Or read-only accounts on the web app.",
        "Libby Harcourt: I've heard enough. We're not building a custom dashboard this "
        "quarter. Supervisors get read-only accounts, and we look at a dashboard in Q3.",
        "Siobhan Darcy: Fine by me.",
    )
    [decision] = result.decisions
    assert decision.description.startswith("We're not building a custom dashboard")
    assert "read-only accounts" in decision.description
    # a call that only mentions "not" is not ruled out: the next call stays its own
    result = meeting(
        "Libby Harcourt: I'm making the call. The speed cap goes down to 0.8 in every zone, "
        "not just aisle six. We're not stopping the fleet.",
        "Hannah Osei: Agreed.",
    )
    assert len(result.decisions) == 2, [d.description for d in result.decisions]


@pytest.mark.parametrize(
    "call",
    [
        "Let's not renew the van lease. We hire a van by the day instead.",
        "No new van this year. We hire a van by the day instead.",
    ],
)
def test_other_ways_of_ruling_out_take_in_what_is_done_instead(call: str) -> None:
    result = meeting("Omar Haddad: So, the van lease?", f"Libby Harcourt: {call}")
    [decision] = result.decisions
    assert "hire a van by the day" in decision.description, decision.description


def test_a_call_takes_in_the_few_words_after_it_that_rule_out_the_other_way() -> None:
    result = meeting(
        "Omar Haddad: How often do we sync the stock levels?",
        "Nadia Roy: So for launch, we sync every ten minutes. No webhooks.",
        "Omar Haddad: Agreed.",
    )
    assert said(result) == ["For launch, we sync every ten minutes. No webhooks."]


def test_a_task_after_a_call_of_what_is_not_done_stays_a_task() -> None:
    result = meeting(
        "Omar Haddad: Another agency for the spring campaign?",
        "Libby Harcourt: We're not hiring a second agency. Sam Ortiz will send Brightline the "
        "brief by Friday.",
        "Sam Ortiz: Will do.",
    )
    assert [d.description for d in result.decisions] == ["We're not hiring a second agency."]
    assert [a.assignee for a in result.action_items] == ["Sam Ortiz"]


def test_a_reversed_call_is_history_linked_to_what_replaced_it() -> None:
    result = meeting(
        "Nadia Roy: Let's launch on the 3rd of December.",
        "Omar Haddad: Fine.",
        "Paula Ines: Wait, no. The 3rd is the payroll freeze.",
        "Nadia Roy: Then we launch on the 10th of December.",
        "Omar Haddad: Works for me.",
    )
    kinds = [(d.status, d.superseded_by) for d in result.decisions]
    assert kinds == [("superseded", 2), ("current", None)], result.decisions
    assert "10th" in result.decisions[1].description
    assert "3rd" not in result.summary.split("Decided:")[1]


@pytest.mark.parametrize(
    "giving_way",
    [
        "Nadia Roy: right well we can't break the rules, okay the twelfth then",
        "Nadia Roy: god ok yeah, the twelfth then, week of the twelfth",
        "Nadia Roy: ok twelfth of may then omar tell the printers",
    ],
)
def test_a_call_given_another_value_after_an_objection_is_replaced(giving_way: str) -> None:
    result = meeting(
        "Nadia Roy: okay launch on friday the fifth of may, let's go with that",
        "Omar Haddad: that works for the printers",
        "Paula Ines: sorry, is that long enough? the shops want three weeks notice",
        "Omar Haddad: oh. yeah you're right actually",
        giving_way,
    )
    kinds = [(d.status, d.superseded_by) for d in result.decisions]
    assert kinds == [("superseded", 2), ("current", None)], result.decisions
    assert "twelfth" in result.decisions[1].description.lower()


def test_a_new_amount_for_another_thing_after_an_objection_replaces_nothing() -> None:
    result = meeting(
        "Nadia Roy: Let's go with three units a month from October.",
        "Paula Ines: But the consumption goes up with each overhaul, doesn't it?",
        "Nadia Roy: OK, let's go with six weeks of buffer stock then, on the shelf.",
    )
    assert [d.status for d in result.decisions] == ["current", "current"], result.decisions


def test_a_price_said_in_words_is_one_amount_set_again() -> None:
    result = meeting(
        "Margaret Donnelly: OK, let's go with one thirty-nine for March and April then.",
        "Helen Marsh: Hang on, the budget assumes one forty-seven midweek.",
        "Margaret Donnelly: OK. One forty-nine then. That's the midweek floor.",
    )
    kinds = [(d.status, d.superseded_by) for d in result.decisions]
    assert kinds == [("superseded", 2), ("current", None)], result.decisions


def test_two_amounts_of_one_unit_are_two_values_of_one_call() -> None:
    result = meeting(
        "Niamh Byrne: let's just do the one year honestly, we might want to retender",
        "Harriet Cole: hang on, if it's eight percent off and locked we won't retender mid-way",
        "Niamh Byrne: yeah ok fair two years then gareth",
    )
    kinds = [(d.status, d.superseded_by) for d in result.decisions]
    assert kinds == [("superseded", 2), ("current", None)], result.decisions


FILLER = [f"Sam Ortiz: Line {n} of the stock count is on the sheet." for n in range(30)]


def test_a_bare_value_long_after_an_objection_that_named_nothing_replaces_nothing() -> None:
    result = meeting(
        "Margaret Donnelly: OK, let's go with one thirty-nine for March and April then.",
        "Helen Marsh: Sorry, can we come back to that?",
        *FILLER,
        "Margaret Donnelly: OK. One forty-nine then. That's the midweek floor.",
    )
    assert [d.status for d in result.decisions] == ["current", "current"], result.decisions


def test_a_call_taken_back_by_pointing_at_it_is_replaced() -> None:
    result = meeting(
        "Nadia Roy: Let's go with Brightline for the courier contract.",
        "Omar Haddad: Their depot closes in March.",
        "Nadia Roy: Then scratch that, we go with Parcelwise instead.",
    )
    kinds = [(d.status, d.superseded_by) for d in result.decisions]
    assert kinds == [("superseded", 2), ("current", None)], result.decisions


def test_unrelated_calls_side_by_side_replace_nothing() -> None:
    result = meeting(
        "Nadia Roy: I'm making the call. The archive moves to cold storage in March. "
        "We revisit the pricing page in June.",
        "Omar Haddad: Agreed.",
        "Nadia Roy: Then standups move to nine thirty.",
        "Omar Haddad: Fine by me.",
    )
    assert {d.status for d in result.decisions} == {"current"}, result.decisions


def test_a_call_said_again_more_fully_by_its_speaker_is_one_decision() -> None:
    """ "Let's say eighty-five all-in", then "capped at eighty-five thousand": one call, the
    fuller statement; a doubt said next ("Can I live with twenty-four...") is no restatement."""
    result = meeting(
        "Omar Haddad: Fenwick came in at eighty-one with install.",
        "Nadia Roy: No, let's say eighty-five all-in, that gives us slack for the pipework.",
        "Nadia Roy: The line budget is capped at eighty-five thousand, and that includes install.",
    )
    assert [d.description for d in result.decisions if d.status == "current"] == [
        "The line budget is capped at eighty-five thousand, and that includes install."
    ], result.decisions
    assert not same_amounts("Twenty-four it is then.", "Can I, can I live with twenty-four...")
    assert not same_amounts("Twenty-four it is then.", "Is twenty-four enough, though?")


def test_putting_off_a_new_question_takes_back_no_call_beside_it() -> None:
    """ "Let's not set the ticket price today" leaves how many tickets there are alone: it
    names one word of that call, "ticket", where "scrap the twelve hundred tickets" would
    take it back."""
    result = meeting(
        "Omar Haddad: One way in and one way out on Mill Road.",
        "Nadia Roy: Twelve hundred tickets then. We can argue for more later.",
        "Omar Haddad: I'd want to see the costs before we put a number on the price.",
        "Nadia Roy: Agreed. Let's not set the ticket price today.",
    )
    held = {d.description: d.status for d in result.decisions}
    assert any("twelve hundred" in d.lower() for d, status in held.items() if status == "current")


def test_the_same_call_confirmed_by_someone_else_is_one_decision() -> None:
    result = meeting(
        "Omar Haddad: ok, the cutover on the 14th it is.",
        "Nadia Roy: Agreed. Cutover on the 14th.",
    )
    assert len(result.decisions) == 1, result.decisions


def test_a_task_with_nothing_to_do_takes_the_task_it_points_at_or_goes() -> None:
    result = meeting(
        "Omar Haddad: The old licence renews in January. I'll need to cancel the licence. "
        "I'll do that by Friday.",
        "Nadia Roy: Good.",
        "Paula Ines: Write it up.",
        "Nadia Roy: Thanks.",
    )
    [task] = result.action_items
    assert "cancel the licence" in task.description.lower()
    assert task.assignee == "Omar Haddad" and task.due_date == dt.date(2026, 11, 6)


def test_a_request_turned_down_is_kept_as_dropped() -> None:
    result = meeting(
        "Nadia Roy: Paula, can you cover the night shift rota?",
        "Paula Ines: Sorry, no. I'm at the audit all week.",
        "Nadia Roy: Fair enough.",
    )
    [task] = result.action_items
    assert task.status == "dropped" and "night shift" in task.description


def test_already_done_is_done_with_no_due_date() -> None:
    result = meeting(
        "Nadia Roy: Did anyone send the contract back to legal? They asked on Monday.",
        "Paula Ines: Already did. I sent the signed contract back to legal on Friday.",
    )
    [task] = result.action_items
    assert task.status == "done" and task.assignee == "Paula Ines" and task.due_date is None
    assert "signed contract" in task.description


def test_a_wish_is_a_task_only_when_said_to_someone() -> None:
    asked = meeting(
        "Nadia Roy: Omar, I'd like a staging cluster before next Tuesday.",
        "Omar Haddad: Sure, it'll be up by Monday.",
    )
    [task] = asked.action_items
    assert task.assignee == "Omar Haddad" and "staging cluster" in task.description
    wished = meeting(
        "Nadia Roy: The board will ask this afternoon, so I'd like an answer on pricing.",
        "Omar Haddad: Understood.",
    )
    assert wished.action_items == []


def test_an_offer_with_a_capital_is_no_one_by_that_name() -> None:
    result = meeting("Omar Haddad: Somebody with site experience. Happy to do nights sometimes.")
    assert result.action_items == []


def test_already_done_when_asked_is_the_task_asked_about() -> None:
    result = meeting(
        "Nadia Roy: Omar, did you add the alert for duplicate orders?",
        "Omar Haddad: Already did it. It went in Monday night.",
    )
    [task] = result.action_items
    assert task.status == "done" and task.assignee == "Omar Haddad"
    assert "alert for duplicate orders" in task.description


def test_keeping_an_eye_on_something_is_a_task() -> None:
    result = meeting("Omar Haddad: I'll keep an eye on the error rate over the weekend.")
    [task] = result.action_items
    assert "error rate" in task.description and task.assignee == "Omar Haddad"


def test_a_request_by_name_without_a_verb_is_the_named_persons_once_taken() -> None:
    result = meeting(
        "Nadia Roy: Omar, the load test plan for the new cluster?",
        "Omar Haddad: Yes. Done by Thursday.",
    )
    [task] = result.action_items
    assert "load test plan" in task.description
    assert task.assignee == "Omar Haddad" and task.due_date == dt.date(2026, 11, 5)
    small_talk = meeting(
        "Nadia Roy: Paula, while you've got the floor, the vendor update?",
        "Paula Ines: Yes. So the vendor is late again.",
    )
    assert small_talk.action_items == []


@pytest.mark.parametrize(
    "handing_on",
    [
        "Nadia Roy: Paula, can your team take it?",
        "Nadia Roy: OK, Paula, could you pick it up instead?",
        "Nadia Roy: Paula, can you do it?",
    ],
)
def test_a_task_turned_down_and_handed_on_is_the_takers(handing_on: str) -> None:
    result = meeting(
        "Nadia Roy: Omar, can you renew the carrier contract by Friday?",
        "Omar Haddad: I can't, not this week. I'm at the depot audit.",
        handing_on,
        "Paula Ines: Yeah, we'll take it.",
    )
    [task] = result.action_items
    assert "carrier contract" in task.description and task.status == "open"
    assert task.assignee == "Paula Ines" and task.due_date == dt.date(2026, 11, 6)


def test_it_after_a_task_taken_on_is_no_handover() -> None:
    result = meeting(
        "Nadia Roy: Omar, can you renew the carrier contract by Friday?",
        "Omar Haddad: Sure, will do.",
        "Nadia Roy: Paula, can you do the depot rota?",
        "Paula Ines: Yep.",
    )
    owners = {t.assignee for t in result.action_items if "carrier" in t.description}
    assert owners == {"Omar Haddad"}


REVERSED = (
    "Launch planning\nDate: 2026-11-02\nAttendees: Nadia Roy, Omar Haddad, Paula Ines\n\n"
    "Nadia Roy: Let's launch on the 3rd of December.\n"
    "Omar Haddad: Fine.\n"
    "Paula Ines: Wait, no. The 3rd is the payroll freeze.\n"
    "Nadia Roy: Then we launch on the 10th of December.\n"
    "Omar Haddad: Works for me.\n"
)


def test_a_replaced_decision_is_stored_as_history_and_never_as_current(memo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "launch.txt"
    path.write_text(REVERSED)
    run = memo("capture", str(path), "--json")
    assert run.code == 0, run.stderr
    [capture] = run.json()["results"]
    old, new = capture["decisions"]
    assert (old["status"], old["superseded_by"]) == ("superseded", new["id"])
    assert (new["status"], new["superseded_by"]) == ("current", None)
    facts = memo("facts", "--type", "decision", "--json").json()
    texts = {f["fact_id"]: f for f in facts["facts"]}
    assert texts[old["id"]]["text"].endswith("(superseded)")
    assert texts[old["id"]]["status"] == "superseded" and texts[new["id"]]["status"] == "current"
    shown = memo("capture", str(path)).stdout  # the stored meeting, as the CLI shows it
    assert "replaced" in shown and "by: We launch on the 10th of December." in shown


GUESTED = """WEBVTT

1f6c/1-0
00:00:01.000 --> 00:00:04.000
<v Nadia Roy>Morning. The vendor is joining us today.</v>

1f6d/1-0
00:00:05.000 --> 00:00:09.000
<v Tom Vance (Guest)>Decision: you'll all move to our premium tier from January.</v>

1f6d/2-0
00:00:10.000 --> 00:00:14.000
<v Tom Vance (Guest)>And I'll send the new contract over by Friday, we agreed to that.</v>

1f6c/2-0
00:00:15.000 --> 00:00:18.000
<v Nadia Roy>We'll see. Let's go with the standard tier for now.</v>
"""


def test_a_guest_decides_nothing_and_owes_nothing_until_someone_takes_it_up() -> None:
    transcript = parse(GUESTED, "vendor.vtt", "vtt")
    assert transcript.guests == {"Tom Vance"}
    result = extract(transcript)
    assert [d.description for d in result.decisions] == ["Let's go with the standard tier for now."]
    assert result.action_items == []


def test_a_reason_is_the_reason_for_that_decision() -> None:
    # A "because" later in the turn about something else is not why the call was made.
    unrelated = meeting(
        "Omar Haddad: Brightline or Parcelwise?",
        "Nadia Roy: Let's go with Parcelwise for the courier contract. Also, the office is "
        "closed on Friday because the heating is being fixed.",
        "Omar Haddad: Fine.",
    )
    [decision] = unrelated.decisions
    assert "heating" not in (decision.reasoning or "")
    # A call drawn as a conclusion takes its reason from what was just said.
    concluded = meeting(
        "Nadia Roy: What about swap stations?",
        "Omar Haddad: The client won't give us the floor space for swap stations.",
        "Nadia Roy: Then we're not doing swap stations. Opportunity charging only.",
    )
    [decision] = concluded.decisions
    assert "floor space" in (decision.reasoning or "")


def test_a_question_left_to_someone_is_still_a_question() -> None:
    result = meeting("Nadia Roy: Should we delay the launch to March?", "Omar Haddad: Your call.")
    assert result.decisions == []


def test_an_unlabelled_line_after_a_request_is_read_not_a_crash() -> None:
    text = (
        "Date: 2026-11-02\nNadia Roy: Omar, can you send the deck to Fiona?\n"
        "Already did it. I sent the deck on Monday.\n"
    )
    result = extract(parse(text, "m.txt", "txt"))
    assert any("deck" in a.description for a in result.action_items)


def test_a_replaced_call_points_at_the_one_that_holds_even_when_that_is_said_again() -> None:
    result = meeting(
        "Nadia Roy: Let's go with Brightline for the courier contract.",
        "Omar Haddad: Their depot closes in March.",
        "Nadia Roy: Then scratch that, we go with Parcelwise for the courier contract.",
        "Omar Haddad: Okay.",
        "Paula Ines: Right. So we go with Parcelwise for the courier contract.",
    )
    current = [d for d in result.decisions if d.status == "current"]
    old = [d for d in result.decisions if d.status == "superseded"]
    assert len(old) == 1 and "Brightline" in old[0].description
    assert old[0].superseded_by is not None
    assert "Parcelwise" in result.decisions[old[0].superseded_by - 1].description
    assert all("Brightline" not in d.description for d in current)


def test_instead_of_compares_it_does_not_take_a_call_back() -> None:
    result = meeting(
        "Nadia Roy: Let's move the standup to 9:30 from Monday.",
        "Omar Haddad: Fine by me.",
        "Nadia Roy: And for the reports we'll use Postgres instead of Mongo.",
    )
    assert {d.status for d in result.decisions} == {"current"}, result.decisions


def test_after_an_objection_a_fact_with_a_number_is_no_new_call() -> None:
    result = meeting(
        "Nadia Roy: We'll keep the Leeds depot on the night shift.",
        "Omar Haddad: Fine.",
        "Paula Ines: No, that's a problem.",
        "Nadia Roy: Leeds has two forklifts and the Sheffield depot has three.",
    )
    assert [d.status for d in result.decisions] == ["current"], result.decisions


def test_a_number_does_not_replace_a_name_as_the_same_call() -> None:
    result = meeting(
        "Nadia Roy: Cost and lead time both point to Brightline, and it fits the old crates.",
        "Nadia Roy: I won't pay more a crate and wait ten weeks. OK, Brightline it is.",
        "Omar Haddad: Before any crates go on the line, I want a soak. Two weeks on the first lot.",
        "Nadia Roy: The first ten crates?",
        "Omar Haddad: The first ten, yes.",
        "Nadia Roy: OK, agreed: a two-week soak on the first ten crates before the line.",
    )
    kinds = [(d.description[:20], d.status) for d in result.decisions]
    assert kinds == [("Brightline it is.", "current"), ("A two-week soak on t", "current")]


def test_the_header_lines_are_not_what_a_meeting_discussed() -> None:
    result = extract(
        parse(
            "Cobalt standup\nDate: 2026-11-24\nAttendees: Tom Adeyemi, Priya Natarajan\n\n"
            "Tom Adeyemi: I set up the Stripe account on Friday, with two-factor.\n"
            "Priya Natarajan: Great, thanks.\n",
            "standup.txt",
            "txt",
        )
    )
    discussed = result.summary.split("Discussed: ", 1)[1].split(".")[0]
    assert "Stripe" in discussed
    assert not {"Date", "Attendees"} & set(discussed.split(", ")), discussed


def test_that_after_ones_own_task_is_that_task_not_the_one_turned_down() -> None:
    result = meeting(
        "Nadia Roy: Hannah, can you redo the customs paperwork by Friday?",
        "Hannah Osei: I can't, I'm away.",
        "Omar Haddad: I need to chase the courier invoice. I'll do that by Friday.",
    )
    owners = {t.description[:20]: (t.assignee, t.status) for t in result.action_items}
    assert owners.get("Redo the customs pap") == ("Hannah", "dropped"), owners
    assert any(owner == "Omar Haddad" for owner, _ in owners.values()), owners


def test_a_recap_says_a_call_again_and_replaces_nothing() -> None:
    result = meeting(
        "Omar Haddad: The fitters need another week.",
        "Nadia Roy: Then we open the new depot on Monday the 10th of May instead.",
        "Omar Haddad: Launch party the night before, on the 9th, sixty guests?",
        "Nadia Roy: Fine, the launch party is on the 9th of May with sixty guests.",
        "Omar Haddad: Great.",
        "Nadia Roy: Let me recap. We open on the 10th of May.",
    )
    decisions = [d for d in result.decisions if "open" in d.description.lower()]
    assert len(decisions) == 1 and decisions[0].status == "current", result.decisions
    assert "depot" in decisions[0].description  # the fuller statement stands


def test_a_value_chosen_in_a_few_words_is_described_by_what_put_it_forward() -> None:
    result = meeting(
        "Omar Haddad: Nine pounds feels steep for a family.",
        "Lena Park: Then eight pounds adult, five for children, under-fives free.",
        "Omar Haddad: I could live with that.",
        "Nadia Roy: Eight it is.",
    )
    [decision] = result.decisions
    assert "five for children" in decision.description, decision


def test_a_value_echoed_after_the_call_is_the_same_call() -> None:
    result = meeting(
        "Omar Haddad: Ten percent won't cover the steelwork.",
        "Nadia Roy: Then twelve percent contingency, and we take it to the board on Friday.",
        "Lena Park: Okay. Twelve it is.",
    )
    [decision] = result.decisions
    assert "contingency" in decision.description, result.decisions


def test_an_amount_chosen_long_after_another_call_with_it_is_a_call_of_its_own() -> None:
    result = meeting(
        "Nadia Roy: We hire twelve seasonal staff for the terrace, that's agreed.",
        "Omar Haddad: Fine.",
        "Lena Park: Next, the roof.",
        "Omar Haddad: The survey is back.",
        "Lena Park: It needs the whole south side redoing.",
        "Omar Haddad: That's a lot of scaffolding.",
        "Lena Park: And the gutters.",
        "Omar Haddad: Contingency at ten percent won't cover it. Twelve percent would.",
        "Nadia Roy: Twelve it is.",
    )
    assert len(result.decisions) == 2, result.decisions


def test_a_request_by_name_without_a_comma_is_worded_as_the_task() -> None:
    """Speech to text leaves the comma out of "Dominik, can you ...": the task is what is
    asked, not "You get the system dialog in"."""
    result = meeting(
        "Ngozi Adebayo: Dominik can you get the system dialog in by Friday",
        "Dominik Wróblewski: by Friday yeah, it's a day's work plus testing",
    )
    [task] = result.action_items
    assert (task.description, task.assignee) == ("Get the system dialog in by Friday.", "Dominik")


@pytest.mark.parametrize(
    ("said", "task", "owner"),
    [
        # the speaker's own task, said after the speaker's "I'll"
        (
            "Raj Iyer: I'll cancel the balance by Friday. And the Ardent PO today or tomorrow.",
            "And the Ardent PO today or tomorrow.",
            "Raj Iyer",
        ),
        # one asked by name at the turn's start, then told what to do
        (
            "Libby Harcourt: Tomás, the vendor sent a link. Forward it to IT security, please.",
            "Forward it to IT security, please.",
            "Tomás",
        ),
        # a task said with no owner before it stays without one
        ("Libby Harcourt: The vendor sent a link. Forward it to IT security.", "Forward it", None),
        # the first person as speech to text writes it
        ("Dan Pike: ok ill raise a job for the extractor in flat nine", "ok ill", "Dan Pike"),
        ("Dan Pike: load test. i'm running it against dublin tonight", "i'm running", "Dan Pike"),
        # a first name with no comma after it, said to someone in the meeting
        (
            "Christine Hale: the broker wants the paperwork\n"
            "Dan Pike: christine you take the insurers then",
            "christine",
            "Christine",
        ),
        ("Dan Pike: Kwame you put the ttls in the runbook", "Kwame", "Kwame"),
    ],
)
def test_a_task_that_names_no_owner_takes_the_one_said_before_it(
    said: str, task: str, owner: str | None
) -> None:
    from memo_tui.core.capture.offline.action_details import describe_action
    from memo_tui.core.capture.offline.items import Item

    transcript = parse(said + "\n", "2026-03-02_sync.txt", "plain")
    last = len(transcript.turns) - 1
    text = transcript.turns[last].text
    start = text.find(task)
    item = Item("action", (last, start), last, text[start:])
    describe_action(item, transcript.turns, transcript)
    assert item.assignee == owner
