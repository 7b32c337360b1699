"""First names that are the same name: diminutives ("Libby" is Elizabeth, "Bill" William)
and spellings that sound alike ("Jon" and "John", "Steven" and "Stephen").

A heuristic, and a small one: common English diminutives and a few common Polish, Spanish,
Russian, Indian and Akan ones (names that look nothing like their short forms: "Hattie" is
Harriet, "Kobby" Kwabena); Irish, Scottish Gaelic,
Welsh and Yoruba names with the spellings of how they are said, which is what speech-to-text
tools and colleagues' notes write ("Neeve" for Niamh, "Eefa" for Aoife, "Dewey" for Dewi);
and a sound key that folds the spellings speech-to-text tools and people swap most. It never
decides alone; a surname, or a meeting's roster, has to agree.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_GROUPS = """
elizabeth elisabeth liz lizzie libby beth betty bess eliza
william will bill billy liam
robert rob bob bobby robbie
richard rick ricky rich dick
james jim jimmy jamie
thomas tom tommy
anthony tony
michael mike mick mikey
david dave davey
daniel dan danny
samuel sam sammy
samantha sam sammy
alexander alex xander
alexandra alex lexi sandra sandy
christopher chris kit
christine christina chris tina
patrick pat paddy
patricia pat patty trish
jennifer jen jenny
susan sue susie
margaret maggie meg peggy marge mags madge
rosalind rosalyn roz ros rosie
rosamund roz ros
edward ed eddie ted ned
andrew andy drew
joseph joe joey
jonathan jon jonny
john jack johnny
nicholas nick nicky
matthew matt
stephen steven steve
benjamin ben benny
katherine catherine kathryn kate katie kathy cathy kat
rebecca becky becca
abigail abby
victoria vicky tori
jessica jess jessie
kimberly kim
frederick fred freddie
gregory greg
henry harry hank
harold harry hal
jacob jake
joshua josh
kenneth ken kenny
lawrence larry
leonard len lenny
amanda mandy
nathaniel nathan nate nat
natalie nat
peter pete
philip phillip phil
raymond ray
ronald ron ronnie
stanley stan
timothy tim timmy
theresa teresa tess tessa terry
walter walt wally
zachary zach zack
gabriel gabe
francis frances fran frank frankie
deborah deb debbie
albert al bert
alfred alf fred
isabella isabel bella izzy
eleanor ellie nell
charles charlie chuck
charlotte charlie lottie
douglas doug
gerald gerry jerry
jeffrey geoffrey jeff geoff
donald don
louis lou
louise lou
harriet hattie hatty
beatrice beatrix bea trixie
alasdair alistair alastair ally
siddharth sid
ravindra ravi
katarzyna kasia kasha
malgorzata gosia
barbara basia
joanna asia
aleksandra ola
agnieszka aga
tomasz tomek
jakub kuba
aleksander olek
wojciech wojtek
jose pepe
francisco paco
ignacio nacho
dmitri dmitry dima
ekaterina katya
niamh neeve neve neev
aoife eefa eefah
siobhan shivaun shevaun shivon chevonne
saoirse seersha sersha
caoimhe keeva kweeva
sinead shinead shinade
grainne grania granya
ciaran kieran keiran
eoin owen
sean shaun shawn
seamus shay shamus
padraig paudric
tadhg teague taig
oisin osheen
roisin rosheen
dearbhla dervla
ruaridh ruairidh ruairi ruari rory roo
eilidh ailey
iain ian
dewi dewey
rhys reece rees
dafydd david dave dai
abimbola bimbo bim bola
seun shaun
oluwaseun seun
kwabena kobby kwabs
"""


def _groups() -> dict[str, frozenset[int]]:
    """Each name, and the groups (lines above) it belongs to."""
    found: dict[str, set[int]] = {}
    for number, line in enumerate(_GROUPS.strip().splitlines()):
        for name in line.split():
            found.setdefault(name, set()).add(number)
    return {name: frozenset(groups) for name, groups in found.items()}


_NICKNAMES = _groups()
_MEMBERS = [frozenset(line.split()) for line in _GROUPS.strip().splitlines()]  # by group


@lru_cache(maxsize=16_384)  # first names recur in every meeting and message
def _plain(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[^a-z]", "", letters.lower())


@lru_cache(maxsize=16_384)
def sound(name: str) -> str:
    """A key that spellings of one sound share: Jon/John, Sara/Sarah, Steven/Stephen,
    Katherine/Catherine (not Park/Parks, not Chen/Cheng)."""
    word = _plain(name)
    for written, said in (("ph", "f"), ("ck", "k"), ("th", "t"), ("q", "k"), ("z", "s")):
        word = word.replace(written, said)
    word = word.translate(str.maketrans("vyc", "fik"))
    word = word[:1] + word[1:].replace("h", "")  # a silent h
    return single_letters(word)


def single_letters(word: str) -> str:
    """A word with each doubled letter written once ("Haddad": hadad)."""
    return re.sub(r"(.)\1+", r"\1", word)


def same_first_name(a: str, b: str) -> bool:
    """Whether two first names name one person: equal, diminutives of one name, or alike
    in sound."""
    plain_a, plain_b = _plain(a), _plain(b)
    if not plain_a or not plain_b:
        return False
    groups = _NICKNAMES.get(plain_a, frozenset()) & _NICKNAMES.get(plain_b, frozenset())
    if plain_a == plain_b or groups:
        return True
    return len(plain_a) >= 3 and len(plain_b) >= 3 and sound(plain_a) == sound(plain_b)


def variants(name: str) -> frozenset[str]:
    """The other forms of a first name the table knows ("shaun": sean, shawn, seun)."""
    plain = _plain(name)
    found = (_MEMBERS[group] for group in _NICKNAMES.get(plain, frozenset()))
    return frozenset().union(*found) - {plain}
