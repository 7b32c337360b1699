"""The phrases that make a sentence a decision or an action item, with weights.

Hand-written rules, measured by `memo bench extract`; the weights are the knobs.
"""

from __future__ import annotations

import re
from typing import Protocol

_TASK_VERBS = (
    r"send|write|draft|set up|setup|look into|look at|check|follow up|prepare|update|schedule|"
    r"share|make|review|create|put together|talk to|email|e-mail|call|fix|investigate|get|ask|"
    r"book|reach out|circulate|pull|run|finish|send out|sort out|take care|handle|own|file|"
    r"open|add|test|deploy|document|find|work on|come up with|focus on|organi[sz]e|benchmark|"
    r"migrate|write up|sync|confirm|contact|chase|coordinate|build|design|draw|present|"
    r"do|measure|estimate|evaluate|research|compare|try|clean up|merge|ship|rerun|"
    r"re-run|raise|loop in|walk|pair|mock up|spec|scope|plan|price|quote|order|install|strip|"
    r"remove|delete|rotate|patch|upgrade|rewrite|translate|print|answer|reply|tell (?!you)|let|inform|"
    r"introduce|spike|put \w+ together|write down|collect|swap|ping|deliver|publish|announce|put|"
    r"save|upload|complete|fill in|figure out|cancel|raise|redo|label|nominate|dig into|stage|"
    r"switch on|switch off|turn on|turn off|enable|disable|post|push|forward|return|"
    r"countersign|sign|submit|approve|brief|train|hire|interview|chase|audit|inspect|survey|"
    r"photograph|record|log|monitor|backport|revert|roll back|release|renew|resend|"
    r"escalate|notify|invite|arrange|reschedule|allocate|assign|summari[sz]e|tidy|fit|mount|"
    r"repair|replace|calibrate|retrain|validate|verify|procure|source|negotiate|"
    r"invoice|archive|export|import|grab|pick up|drop|port|configure|join|book in|"
    r"keep an eye on|keep track of|look after"
)
_SOMEONE_WILL = (
    r"(?:will|'ll|is going to|'s going to|is gonna|'s gonna|can|should|needs to|"
    r"has to|is to|agreed to|volunteered to|offered to|promised to|owes us)"
)
_NOT_A_NAME = (
    r"(?!(?:We|It|This|That|These|Those|There|They|He|She|You|I|What|Which|Who|So|And|But|"
    r"Then|Now|Nothing|Something|Everything|Everyone|Anyone|Someone|Time|Here|If|When|One|"
    r"All|Or|Also|Maybe|Just|Well|Okay|Yeah|Yes|No|Oh|Um|Uh|Right|Sure|Great|Good|Fine|"
    r"Sorry|Please|Thanks|Look|Listen|Alright|Anyway|Actually|Ok|Hmm|Mm|Cool|Perfect|Happy|Glad|"
    r"Keen|Ready|Able|Free|Willing|Nice|Easy|Hard|Best|Better|Need|Going|Want|Have|Got|"
    r"Honestly|Basically|Frankly|Seriously|Personally|Obviously|Clearly|Ideally|Really|Luckily|"
    r"Sadly|Unfortunately|Hopefully|Realistically|Practically|Literally|Apparently|Genuinely|"
    r"Fair|Agreed|Right|Mind|Wait|Hang|Hold|Cheers|Brilliant|Lovely|Excellent)\b)"
)
# Asked of someone, or of their people: "can you", "could your team".
_YOU_ASKED = r"(?:can|could|would) (?:you|your (?:team|lot|people|folks|side))\b"
REQUEST = re.compile(rf"\b{_YOU_ASKED}", re.I)
IMPERATIVE = re.compile(rf"^(?:please\s+)?(?:also\s+)?(?:{_TASK_VERBS})\b", re.I)
# A task given to someone else than who had it: "take the soak instead", "take it over".
HANDOVER = re.compile(
    r"\binstead\b|\btake (?:it|that|this) over\b|\btake over\b|\bhand (?:it|that|this) (?:over )?to\b",
    re.I,
)
# "Alex, ...", "And John, ...": someone spoken to by name.
ADDRESSED = re.compile(rf"^\W*(?:(?i:and|so|also|then|ok|okay)\W+)?{_NOT_A_NAME}[A-Z][\w'\-]+,\s")
_NAME = rf"(?:{_NOT_A_NAME}[A-Z][\w'\-]{{1,30}}(?:\s+[A-Z][\w'\-]{{1,30}}){{0,2}})"


class Cue(Protocol):
    def search(self, string: str) -> re.Match[str] | None: ...


class _Chosen:
    """ "<choice> it is" ending a clause: "OK, Voltaic it is.", "The 20th it is for shadow
    week", but not "that's what it is" or "yes it is"."""

    _SAID = re.compile(
        r"(?<=[\w'.\-]) it is(?: then)?(?: for [\w\s\-]{1,40})?\s*(?:[.!:;,\u2014]|$)"
    )
    _NOT_A_CHOICE = frozenset(
        "what that this how there here as so where whatever who which if because when whether "
        "but yes yeah no think believe guess know sure hope maybe and or thing way it's is was "
        "said where's now about of with for in on at to from by part problem point truth fact "
        "reason worst best trouble".split()
    )

    def search(self, string: str) -> re.Match[str] | None:
        for match in self._SAID.finditer(string):
            before = string[: match.start()].split()
            if before and before[-1].lower().strip(",.") not in self._NOT_A_CHOICE:
                return match
        return None


class _Placed:
    """Where something goes, stays or moves, said of a thing ("the fleet stays at 24",
    "alerts go to PagerDuty"), not of a person ("we go to"), a pronoun or a habit ("prices
    go up every January"). A cheap search first; the rest only when it hits."""

    _SAID = re.compile(
        r"\b(?:goes|stays|moves|becomes|remains|go|stay)\s+(?:live|out|back|down|up|to|on|at|"
        r"from|in)\b",
        re.I,
    )
    _NOT_A_THING = re.compile(r"^\W*(?:it|this|that|which|he|she|I|you)\b", re.I)
    _HABIT = re.compile(
        r"\b(?:every|always|usually|normally|often|sometimes|most of|"
        r"each (?:day|week|month|year|time|morning|evening|night|quarter|spring|summer|autumn|"
        r"winter|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)"
        r"\w*)\b",
        re.I,
    )
    _PERSON_BEFORE = frozenset(
        "i you we they to so and will 'll can not n't just then let's".split()
    )

    def search(self, string: str) -> re.Match[str] | None:
        for match in self._SAID.finditer(string):
            if match.start() > 80 or "?" in string[: match.start()]:
                return None
            verb = match.group(0).split()[0].lower()
            before = string[: match.start()].split()
            if verb in ("go", "stay") and (
                not before
                or before[-1].lower().strip(",.") in self._PERSON_BEFORE
                or before[-1].lower().endswith(("'ll", "n't"))
            ):
                continue
            if self._NOT_A_THING.match(string) or self._HABIT.search(string):
                return None
            return match
        return None


class _Planned:
    """A plan said in the plain present by "we": "We open to the public on the 18th",
    "so we stay with Brightwash", "we go induction, the whole line" (how a team says what
    it will do), not a habit ("we open at nine every day"), the agenda ("we start with the
    budget", "we go through the list"), a plan for when something else happens ("we add
    the rest when the racking's done") or a question. Verbs whose past is their present
    ("we cut to twenty-four because of the racking") are left out: that is often told, not
    decided. Only a plan that sets something (a date, an amount, a name) counts: measured on
    QMSum's real meetings, "we use the …", "we do the …" said in passing were 15 calls more
    and not one of them a decision."""

    _SAID = re.compile(
        r"(?:^|[,;:.\u2014]\s*|\b(?:so|then|and|ok(?:ay)?|right|fine|instead|yeah|yes|"
        r"great|good)\s+)(?:we )?we(?:'ll| will)? "
        r"(?:go|stay|open|reopen|close|launch|start|stop|keep|use|run|ship|move|switch|hold|"
        r"take|accept|cap|limit|offer|print|publish|order|hire|book|sign|pay|release|drop|"
        r"pilot|freeze|delay|postpone|cancel|skip|add|extend|reduce|raise|charge|buy|lease|"
        r"build|trial|outsource|renew|pick|choose|budget|price|stick|do|fund|defer|fill|"
        r"install|plan)\b"
        r"(?! (?:through|over|around|on to|onto|with the (?:agenda|list|first|next))\b)",
        re.I,
    )
    _VALUE = re.compile(
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
        r"(?:thir|four|fif|six|seven|eigh|nine)teen|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
        r"january|february|march|april|june|july|august|september|october|november|december|"
        r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
        r"twelfth|\w+teenth|twentieth|twenty-\w+|thirtieth|thirty-first) of)\b",
        re.I,
    )

    _WHEN = re.compile(r"\b(?:when|once|if|unless|as soon as)\b", re.I)
    _INSTEAD = re.compile(r"\binstead\b", re.I)  # a choice said against another
    _CLAUSE_END = re.compile(r",\s*(?:and|but|so)\b|\band if\b|[;.]\s", re.I)
    _NAME = re.compile(r"\b(?!I\b)[A-Z][\w'\-]*")  # a name it sets: "we stay with Brightwash"
    _AS_IT_IS = re.compile(
        r"\b(?:right now|currently|at the moment|at present|these days|nowadays)\b", re.I
    )

    def search(self, string: str) -> re.Match[str] | None:
        match = self._SAID.search(string)
        if match is None or "?" in string or _Placed._HABIT.search(string):
            return None
        if self._AS_IT_IS.search(string, 0, match.end()):
            return None  # "Right now we do the routing in Python": how it is, not a plan
        clause = self._CLAUSE_END.split(string[match.end() :], maxsplit=1)[0]
        if self._WHEN.search(clause):
            return None  # a plan for when something else happens, in its own clause
        named = self._NAME.search(string, match.end()) or self._INSTEAD.search(string, match.end())
        return match if self._VALUE.search(string) or named else None


# Amounts and days in words, for the cues that need a value said after them.
_AMOUNT_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
    "sixty|seventy|eighty|ninety|hundred|thousand"
)
_CALENDAR_WORDS = (
    "monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
    "june|july|august|september|october|november|december"
)


class _LetsDo:
    """ "Let's do seventy.", "let's do a hundred and fifty bound proofs", "Let's do the touch
    tables and the AR app": a choice made by naming what is done, when what it names sets
    something (an amount, a date, a name), not the agenda ("let's do the budget first", "let's
    do ten minutes on hiring") or a question."""

    _SAID = re.compile(
        r"\blet'?s (?:just )?do (?!(?:it|that|this|so|some|the rest|the same|what|more|both|"
        r"either|a bit|a quick|a round|one more|introductions|lunch|dinner|drinks|coffee|"
        r"breakfast|a call|a catch-up)\b)",
        re.I,
    )
    _AGENDA = re.compile(
        r"\b(?:minutes?|mins|round|break|item|points?|agenda|first|next|quick|intros?)\b", re.I
    )

    def search(self, string: str) -> re.Match[str] | None:
        match = self._SAID.search(string)
        if match is None or "?" in string:
            return None
        clause = _Planned._CLAUSE_END.split(string[match.end() :], maxsplit=1)[0]
        if self._AGENDA.search(clause):
            return None
        named = _Planned._NAME.search(clause)
        return match if _Planned._VALUE.search(clause) or named else None


class _SaysValue:
    """ "Let's say we open on the first of July.", "let's say eighty-five all-in": a value
    named for the plan, not an example ("let's say, for example, a hundred users")."""

    _SAID = re.compile(
        r"\blet'?s (?:just )?say\b(?!,? (?:for example|for instance|hypothetically|it|that|"
        r"there|you|they|he|she|someone)\b)",
        re.I,
    )

    def search(self, string: str) -> re.Match[str] | None:
        match = self._SAID.search(string)
        if match is None or "?" in string:
            return None
        clause = _Planned._CLAUSE_END.split(string[match.end() :], maxsplit=1)[0]
        return match if _Planned._VALUE.search(clause) else None


class _Concluded:
    """A choice said as the conclusion of what was just said, opened or closed by "then":
    "Then it's Hartside Mounts.", "it's lime then.", "Okay, the twenty-fifth then.", "Four
    drops a week then, Monday, Wednesday, Friday and Saturday." What is concluded is a short
    thing, not a clause ("why don't you go first then", "maybe you're done, then"), a
    condition ("if it rains, then it's off"), a word that only judges ("then it's fine",
    "then it's only thirteen euros", "then it's unclear") or a time ("by then", or a lone
    "Thursday, then." that agrees when a task is due). Without "it's", it must set
    something: an amount, a date or a name past its first word."""

    _LEAD = r"^\W*(?:(?:ok(?:ay)?|right|so|yes|yeah|fine|well)\W+){0,2}"
    _SAID = re.compile(
        rf"{_LEAD}then,? it'?s (?P<what>[^.,;!?]{{1,30}}?)\s*(?:[.;!\u2014]|$)|"
        rf"{_LEAD}(?P<its>it'?s )?(?P<value>[^.,;!?]{{1,40}}?),? (?:then|for now)\s*"
        r"(?:[.,;!\u2014]|$)",
        re.I,
    )
    _NOT_A_THING = frozenset(
        """fine ok okay done good great sorted settled agreed decided too not up on me you
        us him her them that this it going just what fair all over off see talk speak catch
        bye right well so we i let's my your his her our their only pretty quite very really
        more less still even probably unclear difficult easy hard why how maybe and but or
        you're we're they're i'm he's she's there's by until till since before from after""".split()
    )
    _MOST_WORDS = 6
    _SOCIAL = frozenset(
        "enjoy happy back safe good have thanks thank cheers bye welcome congrats over".split()
    )

    def search(self, string: str) -> re.Match[str] | None:
        match = self._SAID.search(string)
        if match is None or "?" in string:
            return None
        what = match.group("what") or match.group("value")
        words = [w.strip(",") for w in what.lower().split()]
        judged = self._NOT_A_THING - ({"only"} if match.group("value") else set())
        if not words or len(words) > self._MOST_WORDS or set(words) & judged:
            return None  # "Cash only then." chooses; "then it's only thirteen euros" judges
        if words[0] in ("a", "an") and match.group("what") or words[-1].endswith("ing"):
            return None  # "then it's a problem", "it's raining then": said of it, not chosen
        if match.group("what") or match.group("its"):
            return match
        if not 1 < len(words) <= self._MOST_WORDS - 2:
            return None
        if words[0] in self._SOCIAL:
            return None  # "Enjoy Lisbon then.", "Back to Omar then.": no choice named
        past_first = what.split(maxsplit=1)[1] if len(words) > 1 else ""
        if _Planned._VALUE.search(what) or _Planned._NAME.search(past_first):
            return match
        return None


# Verbs "we" says of what it knows, wants or did, not of what it will do.
_NOT_PLANNED = frozenset(
    """know think have need want see get got mean say said talk had did are were was can could
    should would might may must just also still all both already really probably basically
    actually kind sort like love hope guess feel look heard understand agree discussed covered
    talked went came saw found tried lost spent made took told thought knew felt left kept paid
    sent built bought brought ran began wrote gave don't didn't won't can't aren't weren't
    haven't hadn't wouldn't couldn't shouldn't never only even always usually normally often
    sometimes then so do will shall""".split()
)


class _ConcludedPlan:
    """A plan drawn as the conclusion of what was said, whatever its verb: "So for the pilot,
    we poll the orders API every five seconds.", "Then we refurbish the other gates." The
    opening ("so", "then", "okay so") and a value or a name it sets are what make it a plan;
    a habit said this way ("so we meet every Monday") is one too."""

    _SAID = re.compile(
        r"^\W*(?:(?:ok(?:ay)?|right|alright|fine|good|great|yeah|yes)\W+)?(?:so|then)\W+"
        r"(?:for [^,.?]{1,30},\s*)?we (?P<verb>[a-z]+)\b",
        re.I,
    )

    def search(self, string: str) -> re.Match[str] | None:
        match = self._SAID.search(string)
        if match is None or "?" in string:
            return None
        verb = match["verb"].lower()
        if len(verb) < 3 or verb in _NOT_PLANNED or verb.endswith("ed"):
            return None
        clause = _Planned._CLAUSE_END.split(string[match.end() :], maxsplit=1)[0]
        if _Planned._WHEN.search(clause):
            return None
        named = _Planned._NAME.search(clause) or _Planned._INSTEAD.search(clause)
        return match if _Planned._VALUE.search(clause) or named else None


class _Picked:
    """A pick said in a few words after a word that takes it: "OK, freeze on the 20th.",
    "Okay, Lantern first.", "fine, twenty fourth of july." What is picked sets something (an
    amount, a date, a name) in two to five words; not thanks, the agenda or a clause. Said
    this short and this plainly, it is a call on its own (measured on QMSum's meetings, a lone
    "one" is a count: "okay, one battery")."""

    _SAID = re.compile(
        r"^\W*(?:ok(?:ay)?|fine|right|alright|then)\W+(?:then\W+)?"
        r"(?P<what>[^.?!;:,]{2,40}?)\s*(?:[.!]|$)",
        re.I,
    )
    _NOT_PICKED = frozenset(
        """i i'm i'll i've you you're we we're we'll they he she it it's that that's this
        there there's let's so and but thanks thank cheers see next moving let good great cool
        yes yeah no sure well um uh so who what when where why how is are was do does did can
        could would will should go back over bye welcome""".split()
    )
    _AGENDA = re.compile(
        r"\b(?:minutes?|mins|items?|points?|agenda|questions?|things|seconds|today|"
        r"tomorrow|everyone|everybody|all|folks|guys|team)\b",
        re.I,
    )

    def search(self, string: str) -> re.Match[str] | None:
        match = self._SAID.search(string)
        if match is None:
            return None
        what = match["what"]
        words = what.lower().split()
        if not 2 <= len(words) <= 5 or words[0].split("'")[0] in self._NOT_PICKED:
            return None
        if self._AGENDA.search(what):
            return None
        said = {v.lower() for v in _Planned._VALUE.findall(what)} - {"one"}  # "side one": a count
        return match if said or _Planned._NAME.search(what) else None


DECISION_CUES: list[tuple[Cue, int]] = [
    (
        re.compile(
            r"\bwe(?:'ve| have)?\s+(?:just\s+|all\s+|now\s+)?(?:decided|agreed|settled)\b", re.I
        ),
        4,
    ),
    (
        re.compile(
            r"\b(?:decision|final call|final answer|verdict|conclusion)\s*(?:is\b|was\b|:)|"
            r"^\W*final answer\s*[,\u2014-]",
            re.I,
        ),
        4,
    ),
    (
        re.compile(
            r"\bfinal call\b|\bthat'?s (?:decided|settled|agreed|final|the plan|not negotiable|"
            r"non-negotiable|my call|the date)\b|\bthat'?s the (?:number|figure|price)\W*(?:,|$)|"
            r"\bcall (?:this|that|it) decided\b",
            re.I,
        ),
        4,
    ),
    (
        re.compile(r"\b(?:is|are|was|were|been|it'?s) (?:decided|agreed|approved|settled)\b", re.I),
        3,
    ),
    (
        re.compile(
            r"\b(?:let'?s|let us)\s+(?:just\s+|all\s+|definitely\s+)?(?:go with|go for|use|stick with|keep|pick(?! (?:that|this|it) up)|choose|switch|move(?! on)|drop|ship|adopt|launch|standardi[sz]e|not (?:do|use|ship|build|buy|move|change|go with|hire|add)|make it|make the|do it|do that|do this|hold|put|have|cut|freeze|pause|postpone|cancel|target|bring|hire|set)\b",
            re.I,
        ),
        3,
    ),
    (
        re.compile(
            r"\bwe(?:'ll| will|'re going to| are going to|'re gonna| are gonna| shall|(?= (?:go with|go for|keep(?! \w+ing\b)|stick with|move(?! on\b| to the next\b| forward\b)|switch|stay with)\b))\s+(?:just\s+|definitely\s+|now\s+)?(?:go with|go for|use|stick with|keep|pick|choose|switch|move|drop|adopt|ship|launch|standardi[sz]e|not|cut|freeze|postpone|cancel|target|run with|start with|include|incorporate|make it|do it|do big|do all|do the|build|buy)\b",
            re.I,
        ),
        3,
    ),
    (
        re.compile(
            r"\bwe(?:'re| are) (?:going with|using|having|dropping|keeping|switching|moving|sticking with|not doing|not going)\b",
            re.I,
        ),
        2,
    ),
    (  # "We're not doing chilled in the pilot", "we're not moving go-live again"
        re.compile(
            r"\bwe(?:'re| are) not (?:doing|touching|moving|changing|building|buying|adding|"
            r"stopping|pausing|hiring|shipping|renewing|signing|offering|supporting|extending|"
            r"going ahead with|going with|going to (?:do|use|move|change|build|buy|add|ship|hire))"
            r"\b(?! (?:it|that|this|them)\b)|"
            r"\b(?:is|'s|are|'re) off the table\b",
            re.I,
        ),
        3,
    ),
    (_Chosen(), 4),  # "OK, Voltaic it is.", "wave-level it is", "The 20th it is for shadow week"
    (  # "Agreed: we move to webhooks", "OK, agreed: two-week burn-in", "Confirming: no deploys"
        re.compile(
            r"^\W*(?:(?:ok(?:ay)?|yeah|yes|right|so|fine|then)\W+){0,3}"
            r"(?:agreed|decided|confirm(?:ing|ed)|final)\s*[:,\u2014]\s+"
            r"(?!(?:as long as|if|provided|but|though|although|only if|unless|so long as)\b)\S",
            re.I,
        ),
        4,
    ),
    (  # a conclusion drawn: "Okay, so we'll run both in parallel", "Then we launch on the 10th"
        re.compile(
            r"^\W*(?:(?:ok(?:ay)?|right|alright|fine|good|great)\W+(?:so|then)|then)\W+"
            r"(?:for [^,.]{1,30},\s*)?(?:(?:we(?:'ll| will|'re)?|let'?s) (?:just )?(?:go with|go for|"
            r"use|keep|stick with|switch|move|launch|ship|run|start|stop|pilot|roll out|release|"
            r"hire|drop|cancel|postpone|target|offer|freeze|pause|bring|cut)|"
            r"(?:the )?[\w\-]+(?: [\w\-]+)? (?:is|are|will be|moves|goes|stays) (?:now |still )?"
            r"(?:on |at |to |from )?(?:the |a )?(?:\d|monday|tuesday|wednesday|thursday|friday|"
            r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[A-Z]))",
            re.I,
        ),
        2,
    ),
    (  # a rule set: "No new booking features until the fifteenth.", "NO deploys from Friday"
        re.compile(
            r"^\W*(?:[^:]{1,40}:\s*)?no (?!(?:problem|worries|idea|way|one|doubt|thanks|rush|"
            r"pressure|need|chance|clue|comment|it|you|and|not|just|we|I|they|he|she|that|this|"
            r"the|but|so|actually|sorry|no|yes|yeah|wait|well|sure|there)\b)[a-z][\w\-]*"
            r"(?: (?!\w+ed\b|was\b|were\b|had\b|did\b|came\b|went\b|got\b)[\w\-]+){0,5} "
            r"(?:until|before|from|after|during|till)\b",
            re.I,
        ),
        3,
    ),
    (_Placed(), 2),  # "Daventry goes live on 3.1.4", "On-call moves to a weekly rotation"
    (  # "The environmental control settles it.", "It stays exactly where it is."
        re.compile(
            r"\b(?:that|this|which|it|the [\w\- ]{2,30}) settles it\b|"
            r"\b(?:stays|staying|remains) (?:exactly |just )?(?:where|as) it is\b",
            re.I,
        ),
        3,
    ),
    (  # put off to a date: "The cottage roof waits till October."
        re.compile(r"\b(?:waits|can wait|will wait|holds off) (?:till|until)\b", re.I),
        2,
    ),
    (  # a date set for a thing: "the install starts Monday the seventh"
        re.compile(
            r"\b(?:starts|begins|opens|finishes|ends) (?:on |from |in |the week of )?(?:the )?"
            r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|"
            r"march|april|may|june|july|august|september|october|november|december|\d)",
            re.I,
        ),
        2,
    ),
    (_Planned(), 3),  # "We open to the public on Thursday the 18th of June."
    (_LetsDo(), 3),  # "Okay, let's do seventy."
    (_ConcludedPlan(), 3),
    (_Picked(), 4),
    (_Concluded(), 4),  # "Then it's Hartside Mounts.", "Okay, the twenty-fifth then."
    (  # a limit set: "The canning budget is capped at eighty-five thousand."
        re.compile(
            rf"\b(?:is|are) (?:now )?(?:capped|set|fixed|limited|pegged|frozen) (?:at|to) "
            rf"(?:[£$€]|\d|(?:a )?(?:{_AMOUNT_WORDS})\b)",
            re.I,
        ),
        3,
    ),
    (  # "Right. Yes to a kitchen, a small one.", "No to the pop-up."
        re.compile(
            r"^\W*(?:(?:ok(?:ay)?|right|so|fine|then|well)\W+){0,2}(?:yes|no) to (?:a |an |the )?"
            r"(?!(?:you|me|us|that|this|it|both|all|everything|anything|be|some|answer|an "
            r"extent|a degree|a point|a certain)\b)\w",
            re.I,
        ),
        3,
    ),
    (_SaysValue(), 3),  # "Let's say we open on the first of July.", "let's say eighty-five"
    (  # a move to a value: "First canning run moves to Monday the 29th" (with _Placed)
        re.compile(
            rf"\b(?:moves|goes|slips|shifts) (?:back |up |down |out )?to (?:the |a )?(?:\d|"
            rf"(?:{_AMOUNT_WORDS}|{_CALENDAR_WORDS})\b)",
            re.I,
        ),
        1,
    ),
    (re.compile(r"\bI(?:'ve| have) (?:now |just )?decided\b", re.I), 4),
    (  # "What we'll do instead is a free glass of fizz", "I'm accepting the increase"
        re.compile(
            r"\bwhat we(?:'ll| will|'re going to) do (?:instead )?is\b|"
            r"\bhere'?s what we(?:'ll| will)? do\b|"
            r"\bI(?:'m| am) (?:going with|accepting|approving|signing off|keeping|capping)\b",
            re.I,
        ),
        3,
    ),
    (  # a value set in so many words: "We go to five thousand on the first printing.",
        # "Salt Orchard is now publishing on the first of October."
        re.compile(
            r"\b[Ww]e(?:'re| are)? (?:go|going|move|moving|switch|switching) (?:up |down |back )?to "
            r"(?:the |a )?(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|"
            r"forty|fifty|hundred)|"
            r"\b[Ww]e(?:'re| are)? (?:move|moving|switch|switching) (?:over )?to [A-Z]|"
            r"\b(?:is|are) now (?:\w+ing )?(?:on|at|from|for) (?:the |a )?(?:\d|monday|tuesday|"
            r"wednesday|thursday|friday|saturday|sunday|first|second|third|fourth|fifth|[A-Z])",
        ),
        3,
    ),
    (re.compile(r"\bthe plan is\b|\bgoing forward\b", re.I), 3),
    (
        re.compile(
            r"\bwe(?: just| finally)? (?:went (?:for|with)|selected|chose|picked|opted for|settled on)\b",
            re.I,
        ),
        3,
    ),
    (
        re.compile(
            r"\bwe (?:have to|need to|must) (?:keep|use|go with|go for|stick with|drop|ditch|have|include)\b",
            re.I,
        ),
        2,
    ),
    (re.compile(r"\bwe(?:'ll| will)(?: only)? (?:concentrate|focus) on\b", re.I), 2),
    (
        re.compile(
            r"\bfrom now on\b|\bwe (?:all )?agree\b|\beveryone agrees\b|\bconsensus\b|"
            r"\bsounds like a plan\b",
            re.I,
        ),
        2,
    ),
    (
        re.compile(
            r"\bwe (?:don't|do not|won't|will not|shouldn't|can't)\s+(?:need|use|want|consider|do|go|include|support|build)\b",
            re.I,
        ),
        2,
    ),
    (
        re.compile(
            r"\b(?:it|the [\w\- ]{2,30}|this|that) (?:will|is going to|'s going to|'ll|should|has to|must) (?:be|have|use|come|include)\b",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\b(?:I think |I guess |I suppose )?we should\b|\bwe need to go with\b|\bhow about we\b|\bwhy don't we\b",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"^\s*(?:decision|decided|agreed|resolved|outcome)\s*(?:\([^)]{0,60}\))?\s*:", re.I
        ),
        5,
    ),
]

ACTION_CUES: list[tuple[Cue, int]] = [
    (
        re.compile(
            r"\baction items? (?:for|:)|^\s*(?:action|todo|to do|to-do|next steps?|follow[- ]?up|ai)\s*:",
            re.I,
        ),
        4,
    ),
    (
        re.compile(
            r"\bI(?:'ll| will) have (?:the|a|an|it|that|this|my|something)\b.*\b(?:by|before)\b",
            re.I,
        ),
        3,
    ),
    (
        re.compile(r"\byou(?:'re| are)? own(?:s|ing)?\b|\bI(?:'d| would) like you to\b", re.I),
        2,
    ),
    (
        re.compile(
            rf"\bI(?:'ll| will| am going to|'m going to|'m gonna| can| shall| volunteer to)\s+(?!be\b)(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b",
            re.I,
        ),
        3,
    ),
    (
        re.compile(
            rf"\b{_NAME}\s+(?:over here\s+)?{_SOMEONE_WILL}\s+(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b"
        ),
        3,
    ),
    (
        re.compile(
            rf"(?:^|[,;:\u2014\u2013]\s*){_NAME}\s+to\s+(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b"
        ),
        3,
    ),
    (re.compile(r"\byour (?:task|job|homework|assignment|action|responsibility)\b", re.I), 3),
    (
        re.compile(
            r"\byou(?:'re| are| will|'ll)(?: going to| gonna)? (?:be )?(?:look|looking|work|working|focus|focusing|concentrate|concentrating) (?:at|on|together)\b",
            re.I,
        ),
        3,
    ),
    (re.compile(r"\bI (?:want|need) you to\b|\bif you (?:can|could)\b", re.I), 2),
    (
        re.compile(
            r"\bwe (?:have to|need to|must) (?:complete|finish|fill|send|prepare|submit)\b", re.I
        ),
        2,
    ),
    (
        re.compile(
            rf"\b(?:can|could|would) you\s+(?:please\s+)?(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b",
            re.I,
        ),
        2,
    ),
    (
        re.compile(
            rf"\byou(?:'ll| will| are going to|'re going to|'re gonna)\s+(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b",
            re.I,
        ),
        2,
    ),
    (  # "you have to push harder" is as often how a thing works as a task: weak alone
        re.compile(
            rf"\byou (?:need to|have to|should)\s+(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b",
            re.I,
        ),
        1,
    ),
    (
        re.compile(
            r"\b(?:is|are|'s|'re) (?:going to|gonna) (?:work|focus|concentrate) on\b|\bwill (?:work|focus|concentrate) on\b|\bwill be (?:working|focus(?:s)?ed|focusing) on\b",
            re.I,
        ),
        2,
    ),
    (  # "Sam, please also send the list", "Alex, send me the results": a named request
        re.compile(
            rf"^\W*(?:(?i:and|so|also|then|ok|okay)\W+)?{_NOT_A_NAME}[A-Z][\w'\-]+,\s+(?:please\s+)?"
            rf"(?:also\s+)?(?i:{_TASK_VERBS})\b",
        ),
        2,
    ),
    (  # "Paula, can you cover the night rota?": a request by name, whatever its verb
        re.compile(
            rf"^\W*(?:(?i:and|so|also|then|ok|okay)\W+)?{_NOT_A_NAME}[A-Z][\w'\-]+,\s+"
            rf"(?i:{_YOU_ASKED}|please|I(?:'d| would) like|I need|I want)\s+(?:please\s+)?"
            r"(?!(?i:hear|see|say|repeat|explain|talk|speak|go ahead|go on|start|continue|"
            r"remind|tell us|tell me|walk us|introduce|mute|unmute)\b)[a-z]+"
        ),
        2,
    ),
    (  # "Priya, can you take the soak instead?": a task handed on, by name
        re.compile(
            r"\b(?:can|could|would) (?:you|your team)\s+(?:please\s+)?take\b.{0,40}\binstead\b",
            re.I,
        ),
        2,
    ),
    (re.compile(r"\b(?:can|could|would) you\s+(?:please\s+)?\w+", re.I), 1),
    (re.compile(r"\b(?:before|by|for) (?:the )?next (?:meeting|time|sync|call)\b", re.I), 1),
]

# Uncertainty about doing something at all (conditions like "whether" are fine in a task).
ACTION_HEDGES = re.compile(r"\b(?:maybe|perhaps|might|not sure|i don't know|possibly)\b", re.I)
HEDGES = re.compile(
    r"\b(?:maybe|perhaps|might|not sure|i don't know|i wonder|could we|should we|what if|"
    r"if we|whether|do we|are we|would it|wondering|possibly|unless)\b",
    re.I,
)
REVERSAL = re.compile(
    r"\b(?:actually|instead|scratch that|change of plan|on second thought|second thoughts|"
    r"let'?s not|we(?:'re| are) not going|reverse|reversing|rather than|changed? (?:our|my) minds?|"
    r"no longer|not going with|walk(?:ing)? (?:that )?back|overturn|forget (?:that|the)|scrap|"
    r"drop the idea)\b",
    re.I,
)
AGREEMENT = re.compile(
    r"^\W*(?:(?:\w+\W+){0,4}(?:yes|yep|sure|will do|agreed)\b|yes|yeah|yep|yup|agreed|agree|sounds good|sounds great|ok(?:ay)?|sure|fine|great|"
    r"perfect|good idea|definitely|absolutely|exactly|right|works for me|let's do (?:it|that)|"
    r"makes sense|deal|done|will do|on it|no problem)\b",
    re.I,
)
# "Proposal. We geo-fence aisle six.", "Idea: we pay double.": put forward, not settled.
PROPOSAL = re.compile(
    r"^\W*(?:(?:a|one|my|just an?)\s+)?(?:proposal|suggestion|idea|thought|option|"
    r"counter-?proposal)\s*(?:[.:\u2014-]|$)",
    re.I,
)
# A call that says what will not be done ("We're not doing a custom dashboard in Q2.", "No
# webhooks for the pilot."; not an objection, "No, let's say eighty-five"): the statement
# after it in the same turn usually says what is done instead.
RULED_OUT = re.compile(
    r"^\W*(?:(?:so|ok(?:ay)?|right|then)\W+)?(?:no\s+(?!(?:doubt|problem|worries)\b)\w|not\b|"
    r"let'?s not\b|let us not\b|"
    r"(?:we|they)(?:'re| are| will| do)?\s*(?:not|never|n't)\b|(?:we|they) (?:won't|don't|aren't)\b)",
    re.I,
)
# A reply that turns a request down ("Can you leave that out?" "Absolutely not."), unless
# it takes the task on after all ("No, that's fine, I'll send it tonight.").
REFUSAL = re.compile(
    r"^\W*(?:sorry[,.]?\s*)?(?:(?:no|nope|nah)\s*(?:[.!,]|$|(?=sorry\b))|I can'?t\b|I cannot\b|"
    r"absolutely not|definitely not|certainly not|"
    r"of course not|not a chance|no way\b|I(?:'d| would) rather not|I won't|I will not|"
    r"I (?:can't|cannot) do (?:it|that)|I'm afraid not|afraid not)",
    re.I,
)
TAKEN_ON = re.compile(
    r"\bI(?:'ll| will| can(?!'t|not))\b|\b(?:sure|fine|will do|on it|leave it with me)\b", re.I
)


def turned_down(reply: str) -> bool:
    """Whether a reply turns the request before it down (and does not take it on after all)."""
    return bool(REFUSAL.match(reply)) and not TAKEN_ON.search(reply)


# "Already did it. The countersigned copy went back on Friday.": a task done before it was asked.
ALREADY_DONE = re.compile(
    r"^\W*(?:(?:yes|yeah|oh|no need)\W+)?(?:(?:I|we)\s+)?(?:already (?:did|done|have|sent)|"
    r"done already|did (?:it|that) already)\b",
    re.I,
)
REASON = re.compile(
    r"\b(?:because|since|so that|given that|the reason (?:is|being|was)|due to|that way|"
    r"which means|as it|otherwise|cause)\b",
    re.I,
)
# Words that make a sentence an argument for or against something.
ARGUMENT = re.compile(
    r"\b(?:better|worse|weaker|stronger|cheaper|faster|slower|easier|harder|simpler|safer|"
    r"matters?|risky|costs? (?:less|more)|licen[cs]e|experience|handles?|out of the box|"
    r"built in|end-of-life|recovery|reliable|expensive|proven)\b",
    re.I,
)
REASON_LABEL = re.compile(r"\s*(?:[-\u2013\u2014]\s*|\()\s*(?:reason|why|rationale)\s*:\s*", re.I)


# Quoted to its end, or to the end of the sentence (a sentence ends inside the quote:
# 'tagged us: "Decision: the board approved a payment.' then '" It's not real.').
_QUOTED = re.compile(r"\"[^\"]{3,500}(?:\"|$)|\u201c[^\u201d]{3,500}(?:\u201d|$)")


def unquoted(sentence: str) -> str:
    """The sentence without reported speech: a quoted instruction is not the speaker's."""
    return _QUOTED.sub('"..."', sentence)


def score(sentence: str, cues: list[tuple[Cue, int]], hedges: re.Pattern[str]) -> int:
    """Sum of the cue weights that match, less hedges."""
    sentence = unquoted(sentence)
    total, first_end = 0, len(sentence)
    for pattern, weight in cues:
        match = pattern.search(sentence)
        if match:
            total += weight
            first_end = min(first_end, match.end())
    if total and hedges.search(sentence[:first_end]):
        total -= 2
    return total


# A call that gives way or goes on to another ("not cheap, but we go with …", "we're not
# hiring, we're keeping Brightline"): what it says is in its own words.
_CONCEDES = re.compile(r"\bbut\b|,\s*(?:and\s+)?we(?:'re| are| will|'ll)?\s", re.I)


def ruled_out(call: str, then: str) -> bool:
    """Whether `call` says, whole, what will not be done and `then`, the statement after it,
    is no task: then that statement says what is done instead."""
    return (
        bool(RULED_OUT.search(call))
        and not _CONCEDES.search(call)
        and not score(then, ACTION_CUES, ACTION_HEDGES)
    )


# "No webhooks.", "Not the 20th.": a few words after a call that rule out the other way.
_OTHER_WAY_OUT = re.compile(
    r"^\W*(?:no|not)\s+(?!(?:doubt|problem|worries|way|idea|one|sorry|no|yes)\b)\w[^?]*$", re.I
)


def other_way_out(sentence: str) -> bool:
    """Whether `sentence`, said just after a call, only rules out the other way."""
    return bool(_OTHER_WAY_OUT.match(sentence)) and 2 <= len(sentence.split()) <= 4


# Said around a call, in the same turn: "I'm making the call." before it, "Final." or
# "Agreed." after it (or before it, by the one who confirms it).
_CALL_PREAMBLE = re.compile(
    r"\b(?:I'?m|I am) (?:going to |gonna )?mak(?:e|ing) (?:the|a|this) call\b|"
    r"\bI'?ve heard enough\b|\bfor the avoidance of doubt\b|"
    r"\bhere'?s (?:the|my) (?:call|decision|verdict|answer|go/no-go)\b|"
    r"\b(?:one|a) decision (?:that|which|we|I)\b|\bmy call is\b|\bput(?:ting)? my foot down\b|"
    r"\bI'?m calling it\b|\bit'?s a go\b|^\W*(?:(?:fair|ok(?:ay)?|fine|right)\W+)?"
    r"(?:[A-Z][\w\-]+'s|your|my|his|her) call\b|"
    # a call taken back just before the new one: "OK, scrap Slack.", "That's not happening."
    r"^\W*(?:(?:ok(?:ay)?|fine|right|yeah|no|then|so|and)\W+)*(?:scrap|scratch|forget|ditch)\b|"
    r"\bthat'?s not (?:happening|going to happen)\b",
    re.I,
)
# A call announced and made in one sentence: what follows the mark is the call ("Scrap that,
# we'll do a weekly rotation.", "I'm putting my foot down: no names in the text.").
_CALL_IN_SENTENCE = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|fine|right|yeah|no|then|so|and)\W+)*(?:scrap|scratch|forget|ditch) "
    r"(?:that|it|this|the|[A-Z\d])[^,.:;]{0,40}[,:;]|"
    r"\b(?:I'?m|I've|I have) chang(?:ing|ed) my mind\s*[,:;\u2014-]\s*(?=(?:we|let'?s|the \w+ (?:is|goes|stays))\b)|"
    r"\bI'?m going to say (?:that )?(?=(?:the|we|our)\b)|"
    r"\bfor the avoidance of doubt\b\s*,?|\bmy call is\b(?: that)?|\bput(?:ting)? my foot down\b[^:]{0,30}:|"
    r"\bI'?m calling it\b\s*[:,]|"
    r"\b(?:I'?m|I am) (?:going to |gonna )?mak(?:e|ing) (?:the|a|this) call\s*[-:,\u2013\u2014]",
    re.I,
)
# "That's final for go-live.": a call that points back at the statement before it.
POINTS_BACK = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:that|this|it)(?:'s| is) (?:final|decided|agreed|settled|"
    r"the plan|the decision|the date|the deal|my call|not negotiable|non-negotiable)\b|"
    r"^\W*(?:that|this)(?:'s| is) the (?:number|figure|price)\W*(?:,|$)|"
    r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:that|this|which|the [\w\- ]{2,30}) settles it\b",
    re.I,
)
CONFIRMS = re.compile(
    r"^\W*(?:final|done|agreed|decided|settled|that'?s final|that'?s (?:settled|decided|agreed)|"
    r"(?:I|we) (?:all )?agree|let'?s do (?:that|it|this)|"
    r"put (?:it|that) in the (?:diary|calendar)|let'?s take (?:it|that))\W*$",
    re.I,
)
# A decision told as history ("last year we decided", "in July we said"): a recap, not a call.
_IN_MONTH = (
    r"in (?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_RECOUNTED = re.compile(
    r"\bdecided (?:that|this|it) (?:on|at|in|last|back|earlier|yesterday|before)\b|"
    r"^\W*recap\b|"
    r"\b(?:last (?:year|month|week|quarter|time|meeting|spring|summer|autumn|winter)|"
    rf"back in \w+|{_IN_MONTH}|(?:a|two|three|four|few|couple of) (?:days|weeks|months|years) ago|"
    r"previously|originally|at the time)\b[^.]{0,40}\b(?:we|you|they|I)\s+(?:\w+\s+)?"
    r"(?:decided|agreed|said|picked|chose|dropped|went (?:with|for)|settled)\b|"
    r"\b(?:we|you|they)\s+(?:decided|agreed|said|picked|chose)\b[^.]{0,40}\b(?:last (?:year|month|"
    rf"week|quarter|time)|back in \w+|{_IN_MONTH}|ago)\b",
    re.I,
)
# "…and that stands", "that still holds": a past call said to hold now is a call of this meeting.
_REAFFIRMED = re.compile(
    r"\b(?:that|it|this)(?: decision)? (?:still )?(?:stands|holds|applies)\b|\bstill stands\b|"
    r"\bstill holds\b|\bnothing'?s changed\b",
    re.I,
)
# Text read out from a mail, a post or a document: what it says is not what the room said.
_READ_ALOUD = re.compile(
    r"\b(?:it|the (?:e-?mail|mail|message|letter|doc|document|note|memo|post|"
    r"forward|text|ticket|invite|minutes|thread))\s+(?:says|said|reads|read)\b\s*[:,]?|"
    r"\b(?:quote|I quote)\b\s*[:,]",
    re.I,
)
# "None of that was agreed", "nothing's decided": the opposite of a decision.
_NOT_DECIDED = re.compile(
    r"\b(?:none|nothing|not|never|n't|no one|nobody)\b[\w\s']{0,20}\b(?:agreed|decided|settled)\b",
    re.I,
)


class Gated:
    """A pattern searched only when one of its words is in the text (a substring test costs
    far less than the pattern, and most sentences hold none of them)."""

    def __init__(self, pattern: re.Pattern[str], *words: str) -> None:
        self.pattern, self.words = pattern, words

    def search(self, string: str) -> re.Match[str] | None:
        lower = string.lower()
        if not any(word in lower for word in self.words):
            return None
        return self.pattern.search(string)

    def match(self, string: str) -> re.Match[str] | None:
        lower = string.lower()
        if not any(word in lower for word in self.words):
            return None
        return self.pattern.match(string)


# The words each pattern needs (every alternative of the pattern holds one of them).
CALL_PREAMBLE = Gated(
    _CALL_PREAMBLE,
    "call",
    "enough",
    "avoidance",
    "here",
    "decision",
    "foot",
    "go",
    "scrap",
    "scratch",
    "forget",
    "ditch",
    "happening",
)
CALL_IN_SENTENCE = Gated(
    _CALL_IN_SENTENCE,
    "scrap",
    "scratch",
    "forget",
    "ditch",
    "mind",
    "say",
    "avoidance",
    "call",
    "foot",
)
RECOUNTED = Gated(
    _RECOUNTED,
    "decided",
    "agreed",
    "said",
    "picked",
    "chose",
    "dropped",
    "went",
    "settled",
    "recap",
)
READ_ALOUD = Gated(_READ_ALOUD, "says", "said", "read", "quote")
REAFFIRMED = Gated(_REAFFIRMED, "stands", "holds", "applies", "changed")
NOT_DECIDED = Gated(_NOT_DECIDED, "agreed", "decided", "settled")
