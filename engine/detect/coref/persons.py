"""One entity id per person: full names, surnames alone, first names, initials, titles.

Rules, in order:

1. **The subject.** A biography opens with its subject's name; a span at the start of
   the text that NER typed ORG/LOC/MISC (or missed) and that is a run of capitalised
   words before "(", "is", "was" or "," is made a PERSON.
2. **Titles** ("Dr.", "Sir", "President", "Governor" …) right before a PERSON and
   post-nominals right after it ("FREng", "OBE", "Jr.") are taken into the span
   ("Dr. Donald Blake", "President Richard Nixon").
3. **Clusters.** A PERSON whose name words are all words of an earlier person's name
   ("Solberg", "Ingrid") or match its initials ("M. K. Alagiri" ~ "Alagiri", "JRR") joins
   that person; otherwise it starts a new one. A name part that fits several persons
   ("Silva" after "Ana Silva" and "João Silva") is the person's named by the very same
   words before, else the subject's when it fits the subject, else the most recently
   mentioned person's (:func:`chosen_person`). Post-nominals
   ("PVSM", "OBE") are no name words. A word of six letters or more one edit away from a word of the subject's name
   is that word ("Lt Gen Bilimoria" ~ "Faridoon Noshir Billimoria": a spelling variant).
   A name right after a kinship word ("His father P. T. Rajan", "His son, Palanivel
   Thiaga Rajan") is a relative introduced by name: a new person unless the very same name
   was met before, even when surname and initials agree with someone's.
4. **Missed mentions.** Every later occurrence of a clustered person's first or last name
   (capitalised, whole word) that no span covers becomes a PERSON mention of that person,
   with the person's initials and titles right before it ("Lt Gen F N Billimoria");
   a span of another type whose text is exactly such a name is retyped PERSON.

Persons get ids ``person-1``, ``person-2`` … in order of first mention; other spans get
one id per folded text (``<type>-<n>``).

Titles, honours and kinship words are entries of ``packs/core/detect_persons.yaml``; the
subject's opening, of ``packs/biography/detect_persons.yaml``. Rules 1, 2 and 4, the joining
of a name's fragments, the names in other scripts and the persons named otherwise are named
rules of the detect stage.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from rapidfuzz.distance import Levenshtein

from engine.detect.dialogue import opens_with_courtesy
from engine.detect.spans import DetectedSpan
from engine.knowledge import pattern, rule, words
from engine.types import EntityType

#: titles written before a person's name ("Dr.", "President", "Lt")
TITLES = words("detect_persons.titles")
_TITLE_RE = pattern("detect_persons.title_before")
_SUBJECT = pattern("detect_persons.subject_opening")
_PLACE_SLOT = pattern("detect_persons.place_slot_before")
_NAME_WORD = re.compile(r"[^\W\d_][\w'’.-]*")


def name_words(text: str) -> list[str]:
    """The words of a name without titles, post-nominals, possessives and quoted nicknames."""
    text = re.sub(r"[\"“”].*?[\"“”]", " ", text)
    text = _TRAILING_POSTNOMINAL.sub("", text)
    words = [w.rstrip(".").replace("’", "'") for w in _NAME_WORD.findall(text)]
    words = [w[:-2] if w.endswith("'s") else w for w in words]
    title_words = _title_words(TITLES.get())
    return [w for w in words if w and w.lower() not in title_words]


@functools.lru_cache(maxsize=8)
def _title_words(titles: frozenset[str]) -> frozenset[str]:
    """The words of the titles, without their full stops, in lower case ("lt", "gen", "vice")."""
    return frozenset(w.rstrip(".").lower() for t in titles for w in t.split())


def _initials(words: list[str]) -> str:
    return "".join(w[0].lower() for w in words if w)


FUZZY_MIN_LEN = 6  # a name word this long may differ from the subject's by one edit


def _spelled_as(word: str, full: list[str]) -> bool:
    """``word`` is one edit from a word of ``full`` (both at least :data:`FUZZY_MIN_LEN` long)."""
    return len(word) >= FUZZY_MIN_LEN and any(
        len(f) >= FUZZY_MIN_LEN and Levenshtein.distance(word.lower(), f.lower(), score_cutoff=1) <= 1 for f in full)


def names_fit(words: list[str], full: list[str], fuzzy: bool = False) -> bool:
    """The name ``words`` can be a shorter form of the name ``full``: its words are words of
    ``full`` (one edit away, with ``fuzzy``) and its initials agree, or it is ``full``'s initials."""
    if not words:
        return False
    low_full = {w.lower() for w in full}
    if all(w.lower() in low_full or (fuzzy and _spelled_as(w, full)) for w in words if len(w) > 1) and any(len(w) > 1 for w in words):
        # initials in the shorter name must agree with the full name's first letters
        inits = [w.lower() for w in words if len(w) == 1]
        return all(any(f.lower().startswith(i) for f in full) for i in inits)
    if len(words) == 1 and words[0].isupper() and len(words[0]) >= 2:
        return words[0].lower() == _initials(full)
    return False


def link_persons(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """Spans with subject, titles, person clusters and missed name mentions applied."""
    spans = sorted(spans, key=lambda s: s.start)
    spans = _subject(text, spans) or spans
    spans = _join_fragments(text, spans) or spans
    spans = _variants(text, spans) or spans
    spans = _not_persons(spans) or spans
    spans = [(_with_title(text, s) or s) if s.entity_type is EntityType.PERSON else s for s in spans]
    spans = _inside_titled(spans)
    clusters: list[list[str]] = []
    last_seen: list[int] = []
    assigned: list[DetectedSpan] = []
    for s in spans:
        if s.entity_type is not EntityType.PERSON:
            assigned.append(s)
            continue
        words = name_words(s.text)
        if "variant" in s.inner and clusters:
            assigned.append(s.with_(entity_id="person-1"))
            continue
        relative = bool(_KIN_BEFORE.search(text, max(0, s.start - 30), s.start))
        fitting = [i for i, full in enumerate(clusters)
                   # "His father P. T. Rajan" is not the subject "Ponnambala Thyaga Rajan Palanivel Rajan"
                   if not (relative and words != full)
                   and (names_fit(words, full, fuzzy=i == 0) or names_fit(full, words))]
        i = chosen_person(fitting, last_seen, [i for i in fitting if clusters[i] == words])
        if i is None:
            clusters.append(words)
            last_seen.append(s.start)
            assigned.append(s.with_(entity_id=f"person-{len(clusters)}"))
            continue
        if len(words) > len(clusters[i]):
            clusters[i] = words
        last_seen[i] = s.start
        assigned.append(s.with_(entity_id=f"person-{i + 1}"))
    assigned = _missed(text, assigned, clusters) or assigned
    return _other_ids(assigned)


def chosen_person(fitting: list[int], last_seen: list[int], same: list[int] = (), subject: int | None = 0) -> int | None:
    """Which of the persons ``fitting`` a name (indices; ``subject`` the subject's) a name
    part stands for: the first one named by these very words (``same``: "Meitner" again
    after "Meitner" and "children of Philipp Meitner"), else the subject when it fits — a
    biography calls its subject by a part of the name — else the person mentioned most
    recently ("Silva" after "Ana Silva" and then "João Silva" is João Silva); None when
    none fits."""
    if not fitting:
        return None
    if same:
        return same[0]
    if subject is not None and subject in fitting:
        return subject
    return max(fitting, key=lambda i: last_seen[i])


@rule("subject-opens-document", stage="detect", types=("PERSON",), pack="biography", off=None,
      purpose="the run of capitalised words a biography opens with, before '(', ',', 'is', 'was' or 'born', is its subject, a person")
def _subject(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    m = _SUBJECT.match(text)
    if not m:
        return spans
    s, e = m.start(1), m.end(1)
    while e > s and text[e - 1] in " ,.":
        e -= 1
    if e - s < 2 or len(name_words(text[s:e])) == 0 or opens_with_courtesy(text[s:e]):
        return spans
    overlapping = [x for x in spans if x.start < e and s < x.end]
    if any(x.entity_type is EntityType.PERSON for x in overlapping):
        return spans
    if any(x.end > e or x.start < s for x in overlapping):
        return spans
    rest = [x for x in spans if x not in overlapping]
    sources = frozenset({"coref"}).union(*(x.sources for x in overlapping)) if overlapping else frozenset({"coref"})
    subject = DetectedSpan(s, e, text[s:e], EntityType.PERSON, sources,
                           ner_label=overlapping[0].ner_label if overlapping else None, inner=("subject",))
    return sorted(rest + [subject], key=lambda x: x.start)


#: what may stand between two fragments of one name: blanks, a quoted nickname, a quote — never a line break
_GAP = re.compile(r"^[^\S\n]*(?:[\"“'‘][^\"”'’\n]{1,25}[\"”'’][^\S\n]*|[\"“”][^\S\n]*)?\Z")
_VARIANT_LABEL = pattern("detect_persons.variant_label")
_NOT_VARIANT_LABELS = words("detect_persons.not_variant_labels")
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F]")


@rule("name-fragments-joined", stage="detect", types=("PERSON",), pack="core", off=None,
      purpose="a person's name split by a quoted nickname or by NER is one person span: 'Albrecht \"Ali\" Höhler'")
def _join_fragments(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """A person's name split by a quoted nickname or by NER ("Albrecht" + "Ali" Höhler")."""
    out: list[DetectedSpan] = []
    for s in spans:
        prev = out[-1] if out else None
        if (prev is not None and EntityType.PERSON in (prev.entity_type, s.entity_type)
                and prev.entity_type not in (EntityType.DATETIME, EntityType.QUANTITY, EntityType.CODE)
                and s.entity_type not in (EntityType.DATETIME, EntityType.QUANTITY, EntityType.CODE)
                and _GAP.match(text[prev.end:s.start]) and s.text[:1].isupper() and prev.text[:1].isupper()):
            out[-1] = prev.with_(end=s.end, text=text[prev.start:s.end], sources=prev.sources | s.sources,
                                 entity_type=EntityType.PERSON)
            continue
        out.append(s)
    return out


_NOT_PERSON_KINDS = {"place": EntityType.LOC, "organisation": EntityType.ORG, "language": EntityType.DEM,
                     "nationality": EntityType.DEM, "ethnic group": EntityType.DEM}


@rule("person-word-named-otherwise", stage="detect", types=(EntityType.LOC, EntityType.ORG, EntityType.DEM), pack="core", off=None,
      purpose="a one-word person the store names as a place, a body, a language or a nationality, or NER typed so elsewhere, takes that type")
def _not_persons(spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """A one-word PERSON that the store names as a place, organisation, language or
    nationality ("Genoa", "Nepali"), or that NER typed LOC/ORG elsewhere in the text, and
    that is no word of another person's name takes that type."""
    name_words_seen = {w for s in spans if s.entity_type is EntityType.PERSON and len(s.text.split()) > 1
                       for w in name_words(s.text)}
    elsewhere = {s.text: s.entity_type for s in spans if s.entity_type in (EntityType.LOC, EntityType.ORG) and "ner" in s.sources}
    out = []
    for s in spans:
        if (s.entity_type is EntityType.PERSON and len(s.text.split()) == 1 and s.text not in name_words_seen
                and "subject" not in s.inner):
            if s.gaz_kind in _NOT_PERSON_KINDS:
                s = s.with_(entity_type=_NOT_PERSON_KINDS[s.gaz_kind])
            elif s.text in elsewhere:  # NER typed the same word a place or organisation elsewhere
                s = s.with_(entity_type=elsewhere[s.text])
        out.append(s)
    return out


@rule("name-variants-in-brackets", stage="detect", types=("PERSON",), pack="core", off=None,
      purpose="the subject's name in other scripts or spellings, in the brackets after it, is the subject: '(Greek: Γλαύκος Κληρίδης; born …)'")
def _variants(text: str, spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """The subject's name in other scripts or spellings, in the parentheses after it:
    "(Greek: Γλαύκος Κληρίδης; born …)", "(宇野沢 祐次, Unozawa Yuji, born …)"."""
    persons = [s for s in spans if s.entity_type is EntityType.PERSON]
    if not persons or persons[0].start > 5:
        return spans
    subject = persons[0]
    m = re.compile(r"\s*\(([^()]{1,300})\)").match(text, subject.end)
    if not m:
        return spans
    found: list[tuple[int, int]] = []
    labels: list[tuple[int, int]] = []
    pos = m.start(1)
    for seg in re.split(r"([;,])", m.group(1)):
        a, b = pos, pos + len(seg)
        pos = b
        if seg in (";", ","):
            continue
        lm = _VARIANT_LABEL.match(seg)
        if lm and lm.group(1).lower() not in _NOT_VARIANT_LABELS:
            labels.append((a + lm.start(1), a + lm.end(1)))
            a = a + lm.start(2)
            b = a + len(lm.group(2))
        elif not lm and seg.strip() and not _LATIN.search(seg) and any(c.isalpha() for c in seg):
            a = a + (len(seg) - len(seg.lstrip()))
            b = a + len(seg.strip())
        else:
            continue
        while b > a and unicodedata.category(text[b - 1])[0] in "PZ":  # keep combining marks
            b -= 1
        if b > a and not re.search(r"\d", text[a:b]):
            found.append((a, b))
    if not found:
        return spans
    keep = [s for s in spans if not any(s.start < b and a < s.end for a, b in found)]
    # the language or script named before the variant ("Nepali: …") is no person
    keep = [s.with_(entity_type=EntityType.DEM) if s.entity_type is EntityType.PERSON and (s.start, s.end) in labels else s
            for s in keep]
    new = [DetectedSpan(a, b, text[a:b], EntityType.PERSON, frozenset({"coref"}), inner=("variant",)) for a, b in found]
    return sorted(keep + new, key=lambda x: x.start)


_POSTNOMINAL = pattern("detect_persons.postnominal")
# honours after a name ("PVSM", "OBE", "FRS"); not generations ("Jr.", "Sr", "III"), which tell a father from a son
_TRAILING_POSTNOMINAL = pattern("detect_persons.trailing_honours")
_KIN_BEFORE = pattern("detect_persons.kin_before")


@rule("person-titles", stage="detect", types=("PERSON",), pack="core", off=None,
      purpose="titles right before a person's name and post-nominals right after it are part of the name: 'Dr. Donald Blake', 'Jr.'")
def _with_title(text: str, span: DetectedSpan) -> DetectedSpan:
    """Titles before ("Dr.", "President") and post-nominals after ("FREng", "OBE", "Jr.") a name."""
    m = _TITLE_RE.search(text, max(0, span.start - 40), span.start)
    if m and m.end() == span.start:
        span = span.with_(start=m.start(), text=text[m.start():span.end], sources=span.sources | {"title"})
    p = _POSTNOMINAL.match(text, span.end)
    if p:
        span = span.with_(end=p.end(), text=text[span.start:p.end()], sources=span.sources | {"title"})
    return span


def _inside_titled(spans: list[DetectedSpan]) -> list[DetectedSpan]:
    """Without the spans that a name's title or post-nominal now covers ("PVSM" inside
    "Lieutenant General Faridoon Noshir Billimoria, PVSM")."""
    titled = [s for s in spans if s.entity_type is EntityType.PERSON and "title" in s.sources]
    return [s for s in spans if not any(t is not s and t.start <= s.start and s.end <= t.end for t in titled)]


@rule("missed-name-mentions", stage="detect", types=("PERSON",), pack="core", off=None,
      purpose="a later, uncovered use of a person's first or last name is a mention of that person, and so is a span of another type with that text, or with a middle word of the document's first person's name outside a place's slot ('Kirsty Leigh Coventry Seward' … 'appointed Coventry as Minister')")
def _missed(text: str, spans: list[DetectedSpan], clusters: list[list[str]]) -> list[DetectedSpan]:
    names: dict[str, str] = {}
    middle: dict[str, str] = {}
    for i, full in enumerate(clusters):
        long = [w for w in full if len(w) > 2 and w[0].isupper()]
        if len(long) >= 2:
            for w in (long[0], long[-1]):
                names.setdefault(w, f"person-{i + 1}")
            if i == 0:  # the document's first person, a biography's subject
                for w in long[1:-1]:
                    middle.setdefault(w, f"person-{i + 1}")
    if not names:
        return spans
    out = []
    for s in spans:
        pid = names.get(s.text)
        if pid is None and s.text in middle and not _PLACE_SLOT.search(text, max(0, s.start - 40), s.start):
            pid = middle[s.text]
        if s.entity_type is not EntityType.PERSON and pid and s.entity_type is not EntityType.DATETIME:
            out.append(s.with_(entity_type=EntityType.PERSON, entity_id=pid, sources=s.sources | {"coref"}))
        else:
            out.append(s)
    uses = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?:'s|’s)?(?![\w-])")
    for m in uses.finditer(text):
        a, b = m.start(1), m.end(1)
        if any(x.start < b and a < x.end for x in out):
            continue
        pid = names[m.group(1)]
        bare = DetectedSpan(a, b, text[a:b], EntityType.PERSON, frozenset({"coref"}), entity_id=pid)
        # "Lt Gen F N Billimoria trophy": the person's initials and titles before the name are the name's
        full = clusters[int(pid.rsplit("-", 1)[1]) - 1]
        start = _initials_before(text, a, full)
        initialled = bare.with_(start=start, text=text[start:b])
        span = _with_title(text, initialled) or initialled
        span = span.with_(end=b, text=text[span.start:b])
        inside = [x for x in out if span.start <= x.start and x.end <= a]
        if any(x.start < span.start < x.end for x in out) or any(x.entity_type is EntityType.PERSON for x in inside):
            span, inside = bare, []
        out = [x for x in out if x not in inside]
        out.append(span)
    return sorted(out, key=lambda x: x.start)


_INITIALS_BEFORE = re.compile(r"(?<![\w.])((?:[A-Z]\.?[ \t]+){1,4})$")


def _initials_before(text: str, start: int, full: list[str]) -> int:
    """Where a name found at ``start`` begins once the initials of ``full`` right before it are taken in."""
    m = _INITIALS_BEFORE.search(text, max(0, start - 16), start)
    if m is None:
        return start
    letters = [c.lower() for c in m.group(1) if c.isalpha()]
    return m.start(1) if all(c in _initials(full) for c in letters) else start


def _other_ids(spans: list[DetectedSpan]) -> list[DetectedSpan]:
    ids: dict[tuple[str, str], str] = {}
    out = []
    for s in spans:
        if s.entity_id:
            out.append(s)
            continue
        key = (s.entity_type.value, s.text.casefold())
        if key not in ids:
            ids[key] = f"{s.entity_type.value.lower()}-{len(ids) + 1}"
        out.append(s.with_(entity_id=ids[key]))
    return out
