"""The phrases that make a sentence a decision or an action item, with weights.

Hand-written rules, measured by `memo bench extract`; the weights are the knobs.
"""

from __future__ import annotations

import re

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
    r"save|upload|complete|fill in|figure out"
)
_SOMEONE_WILL = (
    r"(?:will|'ll|is going to|'s going to|is gonna|'s gonna|can|should|needs to|"
    r"has to|is to|agreed to|volunteered to|offered to|promised to|owes us)"
)
_NOT_A_NAME = (
    r"(?!(?:We|It|This|That|These|Those|There|They|He|She|You|I|What|Which|Who|So|And|But|"
    r"Then|Now|Nothing|Something|Everything|Everyone|Anyone|Someone|Time|Here|If|When|One|"
    r"All|Or|Also|Maybe|Just|Well|Okay|Yeah|Yes|No|Oh|Um|Uh|Right|Sure|Great|Good|Fine|"
    r"Sorry|Please|Thanks|Look|Listen|Alright|Anyway|Actually|Ok|Hmm|Mm|Cool|Perfect)\b)"
)
IMPERATIVE = re.compile(rf"^(?:please\s+)?(?:also\s+)?(?:{_TASK_VERBS})\b", re.I)
# A task given to someone else than who had it: "take the soak instead", "take it over".
HANDOVER = re.compile(
    r"\binstead\b|\btake (?:it|that|this) over\b|\btake over\b|\bhand (?:it|that|this) (?:over )?to\b",
    re.I,
)
# "Alex, ...", "And John, ...": someone spoken to by name.
ADDRESSED = re.compile(rf"^\W*(?:(?i:and|so|also|then|ok|okay)\W+)?{_NOT_A_NAME}[A-Z][\w'\-]+,\s")
_NAME = rf"(?:{_NOT_A_NAME}[A-Z][\w'\-]{{1,30}}(?:\s+[A-Z][\w'\-]{{1,30}}){{0,2}})"

DECISION_CUES: list[tuple[re.Pattern[str], int]] = [
    (
        re.compile(
            r"\bwe(?:'ve| have)?\s+(?:just\s+|all\s+|now\s+)?(?:decided|agreed|settled)\b", re.I
        ),
        4,
    ),
    (
        re.compile(
            r"\b(?:decision|final call|final answer|verdict|conclusion)\s+(?:is|was|:)", re.I
        ),
        4,
    ),
    (
        re.compile(
            r"\bfinal call\b|\bthat'?s (?:decided|settled|agreed|final|the plan)\b|\bcall (?:this|that|it) decided\b",
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
            r"\b(?:let'?s|let us)\s+(?:just\s+|all\s+|definitely\s+)?(?:go with|go for|use|stick with|keep|pick|choose|switch|move|drop|ship|adopt|launch|standardi[sz]e|not|make it|make the|do it|put|have|cut|freeze|pause|postpone|cancel|target)\b",
            re.I,
        ),
        3,
    ),
    (
        re.compile(
            r"\bwe(?:'ll| will|'re going to| are going to|'re gonna| are gonna| shall)\s+(?:just\s+|definitely\s+|now\s+)?(?:go with|go for|use|stick with|keep|pick|choose|switch|move|drop|adopt|ship|launch|standardi[sz]e|not|cut|freeze|postpone|cancel|target|run with|start with|include|incorporate|make it|do it|do big|do all|do the|build|buy)\b",
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
            r"\bfrom now on\b|\bwe agree\b|\beveryone agrees\b|\bconsensus\b|\bsounds like a plan\b",
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
            r"\b(?:it|the [\w\- ]{2,30}|this|that) (?:will|is going to|'s going to|'ll|should|has to|must) (?:be|have|use|come|include|look)\b",
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

ACTION_CUES: list[tuple[re.Pattern[str], int]] = [
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
        re.compile(
            r"\byou(?:'re| are)? own(?:s|ing)?\b|\bI(?:'d| would) like (?:you to|a|an|the)\b", re.I
        ),
        2,
    ),
    (
        re.compile(
            rf"\bI(?:'ll| will| am going to|'m going to|'m gonna| can| shall| volunteer to)\s+(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b",
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
            rf"\byou(?:'ll| will| are going to|'re going to|'re gonna| need to| have to| should)\s+(?:\w+\s+){{0,2}}?(?:{_TASK_VERBS})\b",
            re.I,
        ),
        2,
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
    r"no longer|not going with|walk(?:ing)? (?:that )?back|overturn|revisit|forget (?:that|the)|"
    r"drop the idea)\b",
    re.I,
)
AGREEMENT = re.compile(
    r"^\W*(?:(?:\w+\W+){0,4}(?:yes|yep|sure|will do|agreed)\b|yes|yeah|yep|yup|agreed|agree|sounds good|sounds great|ok(?:ay)?|sure|fine|great|"
    r"perfect|good idea|definitely|absolutely|exactly|right|works for me|let's do (?:it|that)|"
    r"makes sense|deal|done|will do|on it|no problem)\b",
    re.I,
)
# A reply that turns a request down ("Can you leave that out?" "Absolutely not."), unless
# it takes the task on after all ("No, that's fine, I'll send it tonight.").
REFUSAL = re.compile(
    r"^\W*(?:(?:no|nope|nah)\s*(?:[.!]|$)|absolutely not|definitely not|certainly not|"
    r"of course not|not a chance|no way\b|I(?:'d| would) rather not|I won't|I will not|"
    r"I (?:can't|cannot) do (?:it|that)|I'm afraid not|afraid not)",
    re.I,
)
TAKEN_ON = re.compile(
    r"\bI(?:'ll| will| can)\b|\b(?:sure|fine|will do|on it|leave it with me)\b", re.I
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


_QUOTED = re.compile(r"\"[^\"]{3,500}\"|\u201c[^\u201d]{3,500}\u201d")


def unquoted(sentence: str) -> str:
    """The sentence without reported speech: a quoted instruction is not the speaker's."""
    return _QUOTED.sub('"..."', sentence)


def score(sentence: str, cues: list[tuple[re.Pattern[str], int]], hedges: re.Pattern[str]) -> int:
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
