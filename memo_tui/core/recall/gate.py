"""Is there a record at all? A relevance gate between retrieval and the answer.

Retrieval always finds *something*: three facts that share a word with the question. The gate
asks whether what was found is about the question, from these signals (a heuristic, measured
by `memo bench ask` on the dev set's answerable and "no record" questions, and on QMSum-val,
where every question has an answer):

- a name the question uses (a capitalised word inside it) that no fact in the store holds,
  and that is no known person, project or client: nothing was ever said about it;
- the question's key terms, weighted by how rare each is in the store, are mostly missing
  from every one of the best facts, and none of them is close in meaning;
- a question after a decision ("did we agree", "have we given", "which … did we switch
  to", or whether we do a thing at all: "are we buying a second van?", "will the museum
  have an audio guide?", "is the bar going to let dogs in?") whose key terms no
  decision or action item covers (its rarest word among them, or half the weight): it was
  talked about, perhaps, but nothing was decided;
- a question after a value (a date: "what go-live date", "when does it open"; a sum of
  money: "what budget", "how much do tickets cost"; a number: "how many"; a name: "which
  vendor") where the lines that are about its topic give no value of that kind: the kiosks
  were talked about, but no budget was set; a count of tickets is no price for them, and
  the name of someone the question names (or their initials) is not the name it asks for;
- a sum or a length asked of a thing ("how much is the stipend …", "how long is the warranty
  …") that no line naming the thing gives: a mileage rate is no stipend; and a name asked of a
  role ("the name of the Voltaic account manager") that no line naming the role gives: a
  fleet manager is no account manager.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from memo_tui.core.capture.offline.text import content_words, content_words_and_parts, stem
from memo_tui.core.capture.subject import is_date, is_number, values
from memo_tui.core.recall.search import Hit
from store import Directory, Store

# Words that say what the question wants done, not what it is about.
REQUEST_WORDS = frozenset(
    """agree agreed approve approved set say said end ended up ever name now current currently
    days moment supposed made make call get got actually back these those still any summarize
    summarise summary discuss discussed discussion discussions debate debated talk talked
    talking think thought opinion opinions view views group settle settled""".split()
)
# "did we agree / what did we set / which … did the team switch to / was it approved".
ASKS_FOR_A_DECISION = re.compile(
    r"\b(?:we|they|the team|the group|you)\s+(?:ever\s+|finally\s+|actually\s+)?"
    r"(?:agree[ds]?|decide[ds]?|approve[ds]?|set|chose|choose|pick(?:ed)?|switch(?:ed)?|"
    r"settle[ds]?|sign(?:ed)? off|commit(?:ted)?|fix(?:ed)?|g[ia]ve|given|grant(?:ed)?|"
    r"offer(?:ed)?|promised?)\b"
    r"|\b(?:have|has) (?:we|they|the team|the group)\s+(?:ever\s+|actually\s+)?"
    r"(?:agreed|decided|approved|chosen|picked|switched|settled|signed off|committed|given|"
    r"granted|offered|promised)\b"
    r"|\b(?:was|were)\b[^?]{0,60}\b(?:agreed|decided|approved|chosen|picked|settled)\b"
    # whether we do a thing at all: "did we end up …", "are we buying …", "will we …"
    r"|^\W*(?:did|do|are|will|have|were|should) we\b(?! (?:ever )?(?:hear|heard|talk|talked|"
    r"discuss|discussed|meet|met|speak|spoke|see|saw|mention|mentioned|ask|asked|know|"
    # what came of it: "did we get our money back?", "did we receive the quote?"
    r"get|got|receive|received)\b)"
    # or what something else will have or allow: "will the museum have …", "is the bar going
    # to let dogs in?" (not "is Parcelwise going to collect twice a day?": said, not decided)
    r"|^\W*(?:will|is|are) (?!(?:we|it|there|anyone|anybody|someone|somebody)\b)"
    r"(?:[\w'-]+ ){0,3}?[\w'-]+ (?:going to |gonna )?(?:have|let|allow|offer|sell|keep)\b",
    re.IGNORECASE,
)
# A question after a choice ("did we go with …", "which … did we pick"): only a decision
# answers it, not a task to look into the options.
CHOICE = re.compile(
    r"\b(?:go|went|gone|going) (?:with|for)\b|\b(?:pick|picked|choose|chose|chosen|decide[ds]?|"
    r"agree[ds]?|settle[ds]?|switch(?:ed)?|approve[ds]?|sign(?:ed)? off)\b",
    re.IGNORECASE,
)
BEST = 5  # how many of the top facts may each cover the question
# Calibrated with `memo bench ask` (see the module docstring).
MIN_COVERAGE = 0.15  # share of the key terms' weight the best fact holds
MIN_SIMILARITY = 0.40  # or a fact this close in meaning
MIN_DECIDED = 0.15  # share a decision or action item holds, for a question after a decision
TOPIC_SHARE = 0.5  # of the topic's weight a line holds to be about the topic
VALUE_SHARE = 0.3  # and to give a value for it, when it gives one

# The kind of value a question asks for. "When did we decide …" is not here: the meeting's
# own date answers it.
ASKS_FOR_A_VALUE = (
    (
        "date",
        re.compile(
            r"\b(?:what|which) (?:date|day|month|week)\b|\bby when\b"
            r"|\b(?:go-live|launch|start|end|due|publication|opening|release) date\b"
            r"|^\s*when (?:is|are|does|do|will)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "money",
        re.compile(
            r"\bhow much\b[^?]*\b(?:cost|costs|pay|paying|paid|charge|charging|spend|spent|"
            r"price|priced|fee|fees|stipend|salary|wage|rate|quote|quoted|advance|"
            r"budget|budgeted)\b|\bhow much money\b"
            # "what does PingPost charge us per text?" (not "what did the outage cost us?")
            r"|^\W*what (?:does|do|did|will|would) (?:(?!about\b|on\b)[\w'-]+ ){1,3}"
            r"(?:charge|pay)\b"
            r"|\b(?:what|which)(?:'s| is| was| are| were)? (?:the )?(?:\w+ )?(?:budget|price|cost|"
            r"fee|rate|stipend|salary|wage|quote)\b",
            re.IGNORECASE,
        ),
    ),
    ("length", re.compile(r"\bhow long\b", re.IGNORECASE)),
    (
        "number",
        re.compile(
            r"\bhow (?:many|much|big|large|long|often)\b"
            r"|\b(?:what|which) (?:number|amount|figure|size|quantity)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "name",
        re.compile(
            r"\b(?:which|what) (?:\w+ )?(?:vendor|supplier|company|firm|provider|partner|agency|"
            r"venue|contractor)\b|\bname of\b|\bwhat(?:'s| is) the name\b",
            re.IGNORECASE,
        ),
    ),
)
# Words that ask for the value rather than say what it is about.
VALUE_WORDS = frozenset(
    """date day days month week when budget budgeted number amount price cost costs figure size
    quantity many much big large long often name vendor supplier company firm provider partner
    agency venue contractor charge charges charging pay paid paying fee fees""".split()
)
# What a sum or a length is asked of: "how much is the stipend we pay …", "how long is the
# warranty on …", "what's the cover price of …". Its head word, unless any figure answers it
# ("the cover price"), must stand beside the figure: a mileage rate is no stipend. Only a
# thing named after "is the" ("how much did the open day raise?" names none), and not a
# count ("how many copies" is answered by "print run 5k") or a frequency ("weekly").
_ASKED_OF = re.compile(
    r"\b(?:how (?:much|long|big) (?:is|was|are|were)|(?:what|which)(?:'s| is| was| are"
    r"| were)) (?:the|our|their|its|a|an) ((?:[\w-]+ ){0,3}?[\w-]+)"
    r"(?: (?:of|for|on|we|our|they|you|i|that|who|at|in|with|from|by|per)\b|\s*\?)",
    re.IGNORECASE,
)
# The role a name is asked of: "what's the name of the council licensing officer Roz …".
_NAME_OF = re.compile(
    r"\b(?i:name of) (?:the|our|their|its|a|an|that) ((?:[\w-]+ ){0,3}?[\w-]+)"
    r"(?: (?:of|for|on|at|in|from|with|by|who|that|we|our|they|you|i|[A-Z][\w'-]*)\b|\s*\?)"
)
ANY_FIGURE = frozenset(
    stem(w)
    for w in VALUE_WORDS
    | set(
        """rate rates fee total totals sum sums value charge quote quoted estimate estimated
        money spend spending spent payment payments pricing prices expense expenses bill bills
        duration length period time""".split()
    )
)
# Who, not what or when (and "(unconfirmed)": how sure memo is, not what was said).
WHO_LABELS = re.compile(r"\s*\((?:decided by|owner:|unconfirmed)[^()]*\)")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
SPOKEN = re.compile(r"^\s*(?:-\s*)?[^:\n]{2,60}:\s+")


@dataclass(frozen=True)
class Relevance:
    answered: bool
    topic: str  # the question's key terms, as asked
    why: str = ""  # what the gate saw, when it found no record

    def no_record(self) -> str:
        """'No record of "office lease" (no fact mentions lease)'"""
        return f'No record of "{self.topic}" ({self.why})'


_YEAR = re.compile(r"(?:19|20)\d\d")


def key_terms(words: list[str]) -> list[str]:
    """The question's own words that say what it is about: its search words, less requests
    and years (a year says when, and many facts share it)."""
    found = [
        w
        for w in words
        if w.lower() not in REQUEST_WORDS and (len(w) > 2 or w.isdigit()) and not _YEAR.fullmatch(w)
    ]
    return list(dict.fromkeys(found))


def _unknown_name(
    question: str, terms: list[str], counts: dict[str, int], directory: Directory
) -> str | None:
    """A name inside the question (a run of capitalised words) that no fact and no known name
    holds in any of its words: "Kubernetes", but not "Barry Hughes" when Barry is known."""
    names = [r.name for r in (*directory.people, *directory.projects, *directory.clients)]
    names += [a.alias for a in directory.aliases]
    known = {w.lower() for name in names for w in re.findall(r"\w+", name)}
    asked = {t.lower() for t in terms}
    for run in re.finditer(r"(?<!^)(?<![.?!]\s)\b[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*", question):
        words = [w for w in re.findall(r"[\w-]+", run.group()) if w.lower() in asked]
        if words and not any(counts.get(w.lower(), 0) or w.lower() in known for w in words):
            return run.group()
    return None


def judge(
    store: Store, question: str, words: list[str], hits: list[Hit], directory: Directory
) -> Relevance:
    """Whether the hits answer the question (`words`: its search words)."""
    terms = key_terms(words)
    topic = " ".join(terms) or question
    if not terms or not hits:
        return Relevance(bool(hits), topic)
    keys = [hit.fact.fact_key for hit in hits]
    seen = store.search.term_coverage(terms, keys)
    name = _unknown_name(question, terms, seen.counts, directory)
    if name:
        return Relevance(False, topic, f"no fact mentions {name}")
    weight = {t: math.log((seen.total + 1) / (seen.counts.get(t.lower(), 0) + 0.5)) for t in terms}
    mass = sum(weight.values()) or 1.0

    def coverage(hit: Hit) -> float:
        key = hit.fact.fact_key
        return sum(w for t, w in weight.items() if key in seen.holders.get(t.lower(), ())) / mass

    best = max(coverage(hit) for hit in hits[:BEST])
    close = max((hit.similarity or 0.0) for hit in hits[:BEST])
    if best < MIN_COVERAGE and close < MIN_SIMILARITY:
        return Relevance(False, topic, f"best fact holds {best:.0%} of the key terms")
    if ASKS_FOR_A_DECISION.search(question):
        # Said in the decision itself: a decision is also found by the words of the turn that
        # led to it (its subject), which do not make it a decision about them. And it holds
        # the question's rarest word the store knows ("uniforms", not "staff"), or most of
        # the rest.
        stems = {t: content_words(t) for t in terms}
        kind, asking = asked_value(question), _value_asked(question)
        asked = {w.lower() for w in re.findall(r"[\w'-]+", question)}

        def said(text: str) -> float:
            # "what retail price …" is answered by "£7.99": a line giving a value of the kind
            # asked is weighed on what the value is of ("the ebook"), not on "retail price"
            valued = kind is not None and gives_value(kind, text, asked)
            about = [t for t in terms if not (valued and stems[t] and stems[t] <= asking)]
            share = sum(weight[t] for t in about) or 1.0
            stored = [t for t in about if seen.counts.get(t.lower(), 0)]
            rarest = max(stored, key=lambda t: weight[t]) if stored else None
            own = content_words(text)
            held = sum(weight[t] for t in about if stems[t] and stems[t] <= own) / share
            # without the question's rarest word, only a fact holding most of the rest
            if rarest is not None and not stems[rarest] <= own and held < TOPIC_SHARE:
                return 0.0
            return held

        kinds = ("decision",) if CHOICE.search(question) else ("decision", "action_item")
        decided = [h for h in hits if h.fact.fact_type in kinds]
        held = max((said(h.fact.text) for h in decided), default=0.0)
        if held < MIN_DECIDED:
            return Relevance(False, topic, "no decision or action item is about it")
    known = {t.lower() for t in terms if seen.counts.get(t.lower(), 0)}
    unvalued = _no_value_given(question, terms, weight, hits, known, _initials(directory))
    if unvalued:
        return Relevance(False, topic, unvalued)
    return Relevance(True, topic)


def person_names(directory: Directory) -> list[str]:
    """The known people's names and their aliases."""
    aliases = [a.alias for a in directory.aliases if a.entity_type == "person"]
    return [p.name for p in directory.people] + aliases


def _initials(directory: Directory) -> set[str]:
    """Known people's initials, as notes write them ("RP" for Roz Pemberton)."""
    names = person_names(directory)
    return {"".join(w[0] for w in name.lower().split()) for name in names if " " in name}


def asked_value(question: str) -> str | None:
    """The kind of value the question asks for (date, number, name), if it asks for one."""
    return next((kind for kind, asks in ASKS_FOR_A_VALUE if asks.search(question)), None)


def _value_asked(question: str) -> set[str]:
    """The words that ask for the value ("what retail price", "which date"): a line giving
    a value of that kind answers them, whether or not it says them."""
    for _, asks in ASKS_FOR_A_VALUE:
        found = asks.search(question)
        if found:
            return content_words(found.group(0))
    return set()


# An amount of money: a currency beside a number ("£8", "$1.2m", "45p", "ninety-six grand").
_MONEY = re.compile(
    r"[£$€]\s?\d|\d[\d,.]*\s?p\b|\b(?:pounds|quid|grand|euros?|dollars|pence|gbp|usd|eur)\b",
    re.IGNORECASE,
)


_LENGTH = re.compile(
    r"\b(?:an?|one|half an?) (?:hour|day|week|fortnight|month|quarter|year|season|term|dozen)\b"
    r"|\bfortnight\b",
    re.IGNORECASE,
)


def gives_value(kind: str, line: str, asked: set[str]) -> bool:
    """Whether `line` gives a value of the kind asked for (a name the question itself says,
    or a known person's initials, is not the name it asks for: `asked` holds both; nor is the
    owner or maker a fact's labels name)."""
    found = values(WHO_LABELS.sub("", line))
    if kind == "date":
        return any(is_date(v) for v in found)
    if kind == "money":
        return any(is_number(v) for v in found) and bool(_MONEY.search(line))
    if kind == "length":  # a number, or "for a year", "a fortnight", "until March"
        return any(is_number(v) or is_date(v) for v in found) or bool(_LENGTH.search(line))
    if kind == "number":
        return any(is_number(v) for v in found)
    return any(not is_date(v) and not is_number(v) and v not in asked for v in found)


def _figure_missing(question: str, kind: str, hits: list[Hit], asked: set[str]) -> str:
    """Why no line gives the sum, length, number or name asked of what the question names
    ("the stipend", "the name of the account manager"), or "" when one does, the question
    asks for another kind of value, or it names nothing past the value itself ("the price")."""
    head = _asked_of(question, kind)
    words = content_words_and_parts(head)
    if not words or words & ANY_FIGURE or head.lower().endswith("ed"):
        return ""
    for hit in hits:
        for line in hit.fact.text.splitlines():
            line = WHO_LABELS.sub("", SPOKEN.sub("", line))
            if words <= content_words_and_parts(line) and gives_value(kind, line, asked):
                return ""
    value = {"money": "sum", "length": "length", "name": "name"}.get(kind, "figure")
    return f"no {value} is given for the {head}"


def _asked_of(question: str, kind: str) -> str:
    """What a value is asked of: the head word of "how much is the stipend …"; for a name,
    the role ("the name of the Voltaic account manager" asks of an account manager: its last
    two words, lower case, so a fleet manager is not one)."""
    if kind == "name":
        of = _NAME_OF.search(question)
        role = [w for w in of.group(1).split() if w.islower()][-2:] if of else []
        return " ".join(role)
    of = _ASKED_OF.search(question) if kind in ("money", "length", "number") else None
    return of.group(1).split()[-1] if of else ""


def _no_value_given(
    question: str,
    terms: list[str],
    weight: dict[str, float],
    hits: list[Hit],
    known: set[str],
    initials: set[str],
) -> str:
    """Why the hits give no value of the kind asked for, or "" when they do (or the
    question asks for none, or no line is about its topic: then this cannot tell).

    A line is about the topic when it holds half its weight and its rarest word the store
    knows; a value counts when any line holding a third of the weight gives it, outside
    the questions it asks ("what if we did a tasting menu for spring?" sets nothing)."""
    kind = asked_value(question)
    if kind is None:
        return ""
    asked = {w.lower() for w in re.findall(r"[\w'-]+", question)} | initials
    missing = _figure_missing(question, kind, hits, asked)
    if missing:
        return missing
    topic = {stem(t.lower()): weight[t] for t in terms if t.lower() not in VALUE_WORDS}
    mass = sum(topic.values())
    stored = [stem(t.lower()) for t in terms if t.lower() in known and stem(t.lower()) in topic]
    if not topic or mass <= 0 or not stored:
        return ""
    rarest = max(stored, key=lambda t: topic[t])

    def share(said: set[str]) -> float:
        return sum(w for t, w in topic.items() if t in said) / mass

    about = gives = False
    for hit in hits:
        for line in hit.fact.text.splitlines():
            # "(owner: Roz Pemberton)" names no answer to what it is about
            line = WHO_LABELS.sub("", SPOKEN.sub("", line))
            said = content_words_and_parts(line)
            about = about or (rarest in said and share(said) >= TOPIC_SHARE)
            stated = " ".join(s for s in _SENTENCE.split(line) if not s.rstrip().endswith("?"))
            held = content_words_and_parts(stated)
            gives = gives or (
                share(held) >= VALUE_SHARE
                and (rarest in held or share(held) >= TOPIC_SHARE)
                and gives_value(kind, stated, asked)
            )
    value = "sum of money" if kind == "money" else kind
    return f"what is said about it gives no {value}" if about and not gives else ""
